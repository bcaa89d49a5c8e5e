import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, also run by hand (node scripts/import-cycles.mjs)
import { findImportCycles } from '../../scripts/import-cycles.mjs';
import { REPO_ROOT } from '../helpers/shared.js';
import { tempDir } from '../helpers/temp.js';

const find = findImportCycles as (dir: string) => string[][];

describe('import cycles', () => {
  it('src/ has none: dependencies point one way', () => {
    expect(find(join(REPO_ROOT, 'src'))).toEqual([]);
  });

  describe('the detector', () => {
    let dir: string | undefined;
    afterEach(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    });
    const tree = (files: Record<string, string>) => {
      dir = tempDir('simjob-cycles-');
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(join(dir, name, '..'), { recursive: true });
        writeFileSync(join(dir, name), text);
      }
      return dir;
    };

    it('finds static, re-export and lazy import() cycles across folders', () => {
      const root = tree({
        'a.ts': "import { b } from './sub/b.js';\nexport const a = b;\n",
        'sub/b.ts': "export { c as b } from '../c.js';\n",
        'c.ts': "export const c = 1;\nexport const load = () => import('./a.js');\n",
        'd.ts': "import './d.js';\n",
      });
      expect(find(root)).toEqual([['a.ts', 'c.ts', 'sub/b.ts'], ['d.ts']]);
    });

    it('ignores type-only imports, which vanish at build time', () => {
      const root = tree({
        'a.ts': "import type { B } from './b.js';\nexport type A = B;\nexport const a = 1;\n",
        'b.ts': "import { a } from './a.js';\nexport type B = number;\nexport const b = a;\n",
      });
      expect(find(root)).toEqual([]);
    });
  });
});
