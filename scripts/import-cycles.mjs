// Runtime import cycles among a folder's .ts files (type-only imports do not count: they vanish at build time).
// Usage: node scripts/import-cycles.mjs [dir]   prints each cycle and exits 1 when there is any (default dir: src)
// The tests run findImportCycles over src/ (test/unit/import-cycles.test.ts), so a new cycle fails `npm test`.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// `import x from './a.js'`, `import './a.js'`, `export { x } from './a.js'`, but not `import type …`/`export type …`.
const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"`;]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function target(from, spec) {
  const path = resolve(dirname(from), spec).replace(/\.js$/, '.ts');
  if (path.endsWith('.ts')) return path;
  return existsSync(`${path}.ts`) ? `${path}.ts` : join(path, 'index.ts');
}

/** The import graph's strongly connected components of more than one file (or a file importing itself). */
export function findImportCycles(dir) {
  const graph = new Map();
  for (const file of tsFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)].map((m) => m[1]);
    graph.set(file, new Set(specs.map((s) => target(file, s))));
  }
  // Tarjan's algorithm (recursive: its depth is the longest import chain, small in a source tree).
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v).has(v)) cycles.push(component.map((f) => relative(dir, f)).sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? 'src');
  const cycles = findImportCycles(dir);
  for (const c of cycles) console.log(`import cycle: ${c.join(' <-> ')}`);
  console.log(cycles.length ? `${cycles.length} import cycles in ${dir}` : `no import cycles in ${dir}`);
  process.exit(cycles.length ? 1 : 0);
}
