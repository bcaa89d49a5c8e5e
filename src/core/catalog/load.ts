/** Which catalog a run reads: the one shipped with simjob, a file, or an https URL (cached with its ETag). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.js';
import { catalogFromText, type Catalog } from '../../domain/droptimizer/catalog.js';

const SHIPPED_CATALOG = 'midnight-s1.json';

/** data/catalog/ of the package, found from this module's place in dist/chunks/ or src/core/catalog/. */
export function shippedCatalogPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++) {
    const candidate = join(dir, 'data', 'catalog', SHIPPED_CATALOG);
    if (existsSync(candidate)) return candidate;
    dir = resolve(dir, '..');
  }
  throw new UsageError(
    'The droptimizer catalog (data/catalog) is missing from this installation.',
    'Reinstall simjob, or pass --catalog FILE.',
  );
}

export interface LoadOptions {
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** A catalog URL could not be fetched and the copy fetched before is used: the command must say so. */
  onCachedCopy?: (url: string, reason: string) => void;
}

export async function loadCatalog(spec: string | undefined, options: LoadOptions): Promise<Catalog> {
  let text: string;
  let where: string;
  if (spec === undefined) {
    where = SHIPPED_CATALOG;
    text = readFileSync(shippedCatalogPath(), 'utf8');
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    const { fetchCatalogText } = await import('./fetch.js');
    where = spec;
    text = await fetchCatalogText(spec, options);
  } else {
    where = spec;
    const { CAPS, decodeOrFail, readUserFile } = await import('../../util/read-file.js');
    const missing = 'Check the path, or drop --catalog to use the shipped one.';
    text = decodeOrFail(await readUserFile(spec, 'Catalog', { missing }, CAPS.catalog), `Catalog ${spec}`);
  }
  return catalogFromText(text, where);
}
