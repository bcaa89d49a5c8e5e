/** Profile arguments the shell did not expand: sh's patterns, files only, sorted; hidden names only when asked. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandProfileArgs } from '../../src/cli/submitting/globs.js';
import { tempDir } from '../helpers/temp.js';

let root: string;
beforeAll(() => {
  root = tempDir('simjob-globs-');
  for (const file of [
    'a.simc',
    'b.simc',
    'c.txt',
    '.hidden.simc',
    'x[1].simc',
    'sub/d.simc',
    'sub/deep/e.simc',
    'sub/.dot/f.simc',
    'αβ.simc',
  ]) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  mkdirSync(join(root, 'dir.simc'));
});

const expand = async (...patterns: string[]) =>
  (await expandProfileArgs(patterns.map((p) => `${root}/${p}`))).paths.map((p) => p.slice(root.length + 1));

describe('profile patterns', () => {
  it('match as sh does: *, ?, [..], [!..], files only, sorted, hidden names only by a leading dot', async () => {
    expect(await expand('*.simc')).toEqual(['a.simc', 'b.simc', 'x[1].simc', 'αβ.simc']);
    expect(await expand('?.simc')).toEqual(['a.simc', 'b.simc']);
    expect(await expand('[ab].simc')).toEqual(['a.simc', 'b.simc']);
    expect(await expand('[!a].simc')).toEqual(['b.simc']);
    expect(await expand('.*.simc')).toEqual(['.hidden.simc']);
    expect(await expand('??.simc')).toEqual(['αβ.simc']);
  });

  it('** descends into folders but not hidden ones', async () => {
    expect(await expand('**/*.simc')).toEqual([
      'a.simc',
      'b.simc',
      'sub/d.simc',
      'sub/deep/e.simc',
      'x[1].simc',
      'αβ.simc',
    ]);
    expect(await expand('sub/*/e.simc')).toEqual(['sub/deep/e.simc']);
  });

  it('takes a file whose name holds pattern characters as it is, and refuses a pattern matching nothing', async () => {
    expect(await expandProfileArgs([`${root}/x[1].simc`])).toEqual({ paths: [`${root}/x[1].simc`], expanded: false });
    expect(await expandProfileArgs(['-', `${root}/a.simc`])).toEqual({
      paths: ['-', `${root}/a.simc`],
      expanded: false,
    });
    await expect(expandProfileArgs([`${root}/*.nope`])).rejects.toThrow(`No profile matches ${root}/*.nope.`);
  });
});
