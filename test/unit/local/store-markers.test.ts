import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalStore } from '../../../src/local/store.js';
import { tempDir } from '../../helpers/temp.js';

describe('a running marker', () => {
  it('is a hard link to the process\'s owner file, as a lock is: marking and unmarking make and free no file', async () => {
    const store = new LocalStore(join(tempDir('simjob-markers-'), 'data'));
    await store.init();
    const id = 'local-01m890000000000000';
    await store.markRunning(id);
    await store.markRunning(id); // marked already: no error
    const [owner] = readdirSync(store.ownersDir);
    expect(owner).toMatch(new RegExp(`^${process.pid}\\.[0-9a-f]+$`));
    const ownerFile = join(store.ownersDir, owner!);
    expect(statSync(join(store.runningDir, id)).ino).toBe(statSync(ownerFile).ino);
    expect(await store.runningIds()).toEqual([id]);
    await store.unmarkRunning(id);
    expect(await store.runningIds()).toEqual([]);
    expect(statSync(ownerFile).nlink).toBe(1);
  });
});
