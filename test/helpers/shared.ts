import { resolve } from 'node:path';

/** The repository root, and the read-only shared/ folder that sits beside it (locally and on CI). */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const SHARED_DIR = process.env.SIMJOB_SHARED_DIR ?? resolve(REPO_ROOT, '..', 'shared');
export const FIXTURES_DIR = resolve(SHARED_DIR, 'fixtures', 'simc');
