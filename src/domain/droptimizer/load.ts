/** Which catalog a run reads: the one shipped with simjob, a file, or an https URL (cached with its ETag). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.js';
import { CatalogError, parseCatalog, type Catalog } from './catalog.js';

const SHIPPED_CATALOG = 'midnight-s1.json';

/** data/catalog/ of the package, found from this module's place in dist/chunks/ or src/domain/droptimizer/. */
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
  try {
    return checkText(parseCatalog(text, where), where);
  } catch (error) {
    if (error instanceof CatalogError)
      throw new UsageError(error.message, 'See docs/droptimizer.md, "Catalog format".');
    throw error;
  }
}

// Control characters (C0 but tab, DEL, C1), line and paragraph separators and bidirectional overrides (as safe.ts).
const UNSAFE_TEXT = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * A catalog's names reach the terminal, profileset names and reports: one holding a control character (a line feed
 * that would fake a second line, an escape sequence) is refused, naming where it is.
 */
function checkText(catalog: Catalog, where: string): Catalog {
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      const bad = UNSAFE_TEXT.exec(value);
      if (!bad) return;
      const code = `U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      throw new CatalogError(
        `Catalog ${where}: ${path} holds a control character (${code}); names must be plain text.`,
      );
    }
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}.${i}`));
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
  };
  walk(catalog, '');
  return catalog;
}
