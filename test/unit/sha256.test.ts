import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { localBuildId } from '../../src/core/local/simc.js';
import { sha256Hex } from '../../src/util/sha256.js';

describe('sha256Hex', () => {
  it("gives node:crypto's digests, for ASCII, UTF-8 beyond it, NUL bytes and lengths around the 64-byte block", () => {
    const texts = [
      '',
      'abc',
      '/opt/simc/simc\0SimulationCraft 1201-01 for World of Warcraft',
      'Zauberwürfel ⚔️ 魔法',
      'x'.repeat(55),
      'y'.repeat(64),
      'z'.repeat(1000),
    ];
    for (const text of texts) expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('keeps local build ids as they were when node:crypto made them (the same simc keeps its id)', () => {
    const line =
      'SimulationCraft 1201-01 for World of Warcraft 12.0.1.65000 Live (hotfix 2026-01-20/65000, git build main 0123abc)';
    const h = createHash('sha256').update(`/usr/bin/simc\0${line}`).digest('hex');
    const id = localBuildId('/usr/bin/simc', line);
    expect(id.replace(/-/g, '').slice(0, 12)).toBe(h.slice(0, 12));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
