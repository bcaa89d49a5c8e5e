/**
 * Temp folders of the tests: every one made here is removed after its test file (test/helpers/setup-temp.ts), pass
 * or fail, so `npm test` leaves nothing in the system temp folder. A test may remove its own earlier; that is fine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh folder `<tmp>/<prefix>XXXXXX`, removed after this test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  while (made.length) rmSync(made.pop()!, { recursive: true, force: true, maxRetries: 3 });
}
