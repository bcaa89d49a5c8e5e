import { describe, expect, it } from 'vitest';
import { randomHex } from '../../src/util/random.js';

describe('randomHex', () => {
  it('gives the length asked for, in lower-case hex digits', () => {
    for (const length of [1, 8, 9, 16, 32]) expect(randomHex(length)).toMatch(new RegExp(`^[0-9a-f]{${length}}$`));
  });

  it('does not repeat itself: 10,000 nonces of 16 digits are all different, and every digit turns up', () => {
    const drawn = Array.from({ length: 10_000 }, () => randomHex(16));
    expect(new Set(drawn).size).toBe(drawn.length);
    expect(new Set(drawn.join(''))).toEqual(new Set('0123456789abcdef'));
  });
});
