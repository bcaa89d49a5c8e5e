import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clearRunOutputs } from '../../../src/core/local/lifecycle.js';
import { LocalStore, RUN_OUTPUT_FILES } from '../../../src/core/local/store.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe('clearRunOutputs (before an attempt)', () => {
  const id = 'local-01m889dkm5c7t7n6p5';

  it("removes every file an earlier attempt wrote and keeps the job's own (record, profile, webhook subscription)", async () => {
    root = mkdtempSync(join(tmpdir(), 'simjob-lifecycle-'));
    const store = new LocalStore(root);
    await store.init();
    mkdirSync(store.jobDir(id));
    const own = ['job.json', 'input.simc', 'webhook.json'];
    for (const name of [...own, ...RUN_OUTPUT_FILES]) writeFileSync(store.file(id, name), 'x');
    await clearRunOutputs(store, id);
    expect(readdirSync(store.jobDir(id)).sort()).toEqual(own.sort());
  });

  it('leaves a first attempt (no outputs yet) and a missing folder as they are', async () => {
    root = mkdtempSync(join(tmpdir(), 'simjob-lifecycle-'));
    const store = new LocalStore(root);
    await store.init();
    await expect(clearRunOutputs(store, id)).resolves.toBeUndefined();
    mkdirSync(store.jobDir(id));
    writeFileSync(store.file(id, 'input.simc'), 'warrior="A"\n');
    await clearRunOutputs(store, id);
    expect(readdirSync(store.jobDir(id))).toEqual(['input.simc']);
  });
});
