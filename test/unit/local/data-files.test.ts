import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIfPresent, readJson } from '../../../src/util/data-files.js';
import { RECORDS } from '../../../src/core/record-schemas.js';
import { tempDir } from '../../helpers/temp.js';

describe('a record of the data dir', () => {
  it('is read when it is a regular file, and is undefined when missing', () => {
    const dir = tempDir('simjob-records-');
    writeFileSync(join(dir, 'job.json'), '{"a":1}');
    expect(readIfPresent(join(dir, 'job.json'))).toBe('{"a":1}');
    expect(readIfPresent(join(dir, 'missing.json'))).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')('that is a FIFO or a link to /dev/zero is an error naming it', () => {
    const dir = tempDir('simjob-records-');
    const fifo = join(dir, 'fifo.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => readIfPresent(fifo)).toThrow(`${fifo}: not a regular file.`);
    const zero = join(dir, 'zero.json');
    symlinkSync('/dev/zero', zero);
    expect(() => readIfPresent(zero)).toThrow(`${zero}: not a regular file.`);
  });

  it('over the cap is an error naming it and its size; a folder in its place says so', () => {
    const dir = tempDir('simjob-records-');
    const big = join(dir, 'big.json');
    writeFileSync(big, Buffer.alloc(2048, 0x20));
    expect(() => readIfPresent(big, 1024)).toThrow(`${big}: 2048 bytes, more than any record simjob writes (1024).`);
    mkdirSync(join(dir, 'folder.json'));
    expect(() => readIfPresent(join(dir, 'folder.json'))).toThrow('a folder is where simjob keeps a file.');
  });

  it('that is damaged gives the fix its caller names', async () => {
    const dir = tempDir('simjob-records-');
    writeFileSync(join(dir, 'key'), '{');
    await expect(
      readJson(join(dir, 'key'), RECORDS.idempotencyKey, undefined, 'Remove that file.'),
    ).rejects.toMatchObject({
      message: `${join(dir, 'key')}: damaged (not JSON).`,
      hint: 'Remove that file.',
    });
  });
});
