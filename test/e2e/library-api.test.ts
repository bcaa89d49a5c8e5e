/**
 * The library's API is kept stable on purpose: the built declaration file (dist/simjob.d.ts, every exported name and
 * type of `import … from 'simjob'`) must equal the committed report, etc/simjob.api.d.ts. A change to the API shows
 * here as a diff; when it is meant, update the report with `npm run api-report` and commit it with the change
 * (and say so in docs/library.md).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/shared.js';

describe("the library's API", () => {
  it('is the committed API report (update it with `npm run api-report` when a change is meant)', () => {
    const built = readFileSync(resolve(REPO_ROOT, 'dist', 'simjob.d.ts'), 'utf8');
    const report = readFileSync(resolve(REPO_ROOT, 'etc', 'simjob.api.d.ts'), 'utf8');
    expect(built, 'dist/simjob.d.ts differs from etc/simjob.api.d.ts: run `npm run api-report` if meant').toBe(report);
  });

  it('exports what docs/library.md documents, and nothing it does not', async () => {
    const library = (await import(resolve(REPO_ROOT, 'dist', 'lib', 'simjob.mjs'))) as Record<string, unknown>;
    const docs = readFileSync(resolve(REPO_ROOT, 'docs', 'library.md'), 'utf8');
    const documented = new Set([...docs.matchAll(/^#### `(\w+)/gm)].map((m) => m[1]));
    expect(Object.keys(library).sort()).toEqual([...documented].sort());
  });
});
