import { describe, expect, it } from 'vitest';
import { oneOf } from '../../src/util/parse.js';
import { closestValue } from '../../src/util/similar.js';

const CHANNELS = ['nightly', 'weekly', 'latest'] as const;

describe('did you mean, for a value of a fixed list', () => {
  it('names the value a typo was meant to be: swapped letters, one missing or extra, another case', () => {
    expect(closestValue('nigthly', CHANNELS)).toBe('nightly');
    expect(closestValue('weekl', CHANNELS)).toBe('weekly');
    expect(closestValue('lattest', CHANNELS)).toBe('latest');
    expect(closestValue('Nightly', CHANNELS)).toBe('nightly');
  });

  it('suggests nothing for another word', () => {
    expect(closestValue('foo', CHANNELS)).toBeUndefined();
    expect(closestValue('monthly', CHANNELS)).toBeUndefined();
  });

  it('a flag refused with the list adds the suggestion as its hint', () => {
    const channel = oneOf('--channel', CHANNELS);
    expect(() => channel('nigthly')).toThrow(
      expect.objectContaining({
        message: '--channel must be one of nightly, weekly, latest (got "nigthly").',
        hint: 'Did you mean nightly?',
      }),
    );
    expect(() => channel('foo')).toThrow(expect.objectContaining({ hint: undefined }));
  });
});
