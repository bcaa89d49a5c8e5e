import { resolve } from 'node:path';

/** The repository root, and the fixtures copied into it (each folder names its sources and licences). */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const TEST_FIXTURES_DIR = resolve(REPO_ROOT, 'test', 'fixtures');
/** Real simc profiles and reports (provenance: test/fixtures/simc/SOURCES.md). */
export const FIXTURES_DIR = resolve(TEST_FIXTURES_DIR, 'simc');
/** SimulationCraft addon exports (provenance: test/fixtures/addon/SOURCES.md). */
export const ADDON_FIXTURES_DIR = resolve(TEST_FIXTURES_DIR, 'addon');
