/**
 * Shared by the property tests under test/fuzz: how many inputs each property tries, and the property every parser
 * of outside input must keep: it returns, or throws one of simjob's own typed errors whose message and fix are one
 * line each and which the CLI renders as one line with a documented exit code.
 *
 * `npm test` tries FUZZ_RUNS inputs per property (default 200) from a fixed seed, so a run in CI fails only when the
 * code changed, never by the luck of the draw; `npm run fuzz` runs the same properties longer (default 20,000 each;
 * FUZZ_RUNS=… to choose) from a new random seed each time. A failure prints the seed and the shrunk input: replay it
 * with FUZZ_SEED=<seed> (and FUZZ_PATH=<path>).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { SimjobError } from '../../src/errors.js';
import { renderError } from '../../src/cli/output/errors.js';
import { Output } from '../../src/cli/output/io.js';
import { memoryStream } from '../helpers/streams.js';

export const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

/** fast-check parameters of every property: the run count, and a seed to replay a failure. */
export function params<T>(): fc.Parameters<T> {
  if (process.env.FUZZ_SEED !== undefined)
    return { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH };
  return { numRuns: RUNS, ...(process.env.FUZZ_RANDOM ? {} : { seed: FIXED_SEED }) };
}

/** The seed of `npm test`'s runs (scripts/fuzz.mjs sets FUZZ_RANDOM for fresh ones). */
const FIXED_SEED = 20261124;

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Run `fn`; if it throws, the error must be a SimjobError (or one of `alsoAllowed`, a module's own typed error),
 * with a one-line message and hint, rendered by the CLI as one line with exit code in `exitCodes`.
 */
export function expectOwnErrors<T>(
  fn: () => T,
  exitCodes: readonly number[] = [1, 2],
  alsoAllowed: readonly ErrorClass[] = [],
): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (alsoAllowed.some((cls) => error instanceof cls)) {
      expect((error as Error).message).not.toMatch(/[\r\n]/);
      return undefined;
    }
    if (!(error instanceof SimjobError)) throw new Error(`not a SimjobError: ${String(error)}`, { cause: error });
    expect(error.message).not.toMatch(/[\r\n]/);
    expect(error.hint ?? '').not.toMatch(/[\r\n]/);
    const stdout = memoryStream(false);
    const stderr = memoryStream(false);
    const code = renderError(
      new Output({ stdout, stderr, env: {}, json: false, noColor: true, quiet: false }),
      error,
      false,
    );
    expect(exitCodes).toContain(code);
    expect(stderr.text().split('\n')).toHaveLength(2); // one line, then the final newline
    expect(stderr.text()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    return undefined;
  }
}

/** Text with the characters that break parsers: controls, quotes, separators, unicode, long runs. */
export const nastyText = (maxLength = 200): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength, unit: 'binary' }),
    fc.string({
      maxLength,
      unit: fc.constantFrom(...'=,.+"\'\\ \t\r\n#$()[]{}:/-_0123456789eE\u0000\u001b\u009b\u2028\ufeff'.split('')),
    }),
    fc.stringMatching(/^[a-z_.]{1,20}[+]?=.{0,40}$/),
  );

type Json = unknown;
export type Path = ReadonlyArray<string | number>;

/** Every path into a JSON value (arrays: their first `perArray` items), the root included. */
export function pathsOf(value: Json, perArray = 8, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.slice(0, perArray).forEach((v, i) => pathsOf(v, perArray, [...prefix, i], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) pathsOf(v, perArray, [...prefix, k], out);
  return out;
}

export type Mutation =
  { path: Path; op: 'delete' } | { path: Path; op: 'set'; value: unknown } | { path: Path; op: 'huge' };

/** Values a broken or hostile producer writes: wrong types, NaN and infinities, extremes, empties. */
const oddValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    '',
    'x',
    0,
    -1,
    -0,
    1e308,
    -1e308,
    2 ** 53 + 2,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    [],
    {},
    [null],
    '\u001b[2K',
  ),
);

/** A few mutations at paths of `value`: a field removed, replaced by a wrong type or an odd number, or a huge array. */
export function mutations(value: Json, maxCount = 4, huge = true): fc.Arbitrary<Mutation[]> {
  const paths = pathsOf(value).filter((p) => p.length > 0);
  const path = fc.constantFrom(...paths);
  const one: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 3, arbitrary: path.map((p) => ({ path: p, op: 'delete' as const })) },
    { weight: 5, arbitrary: fc.tuple(path, oddValue).map(([p, v]) => ({ path: p, op: 'set' as const, value: v })) },
    { weight: huge ? 1 : 0, arbitrary: path.map((p) => ({ path: p, op: 'huge' as const })) },
  );
  return fc.array(one, { minLength: 1, maxLength: maxCount });
}

/**
 * `value` with the mutations applied, on a deep copy. A huge array repeats the node 20,000 times, once per path (a
 * huge array of huge arrays, 400 million entries, would test the machine's patience, not the reader).
 */
export function mutate<T>(value: T, list: readonly Mutation[]): T {
  const root = { v: structuredClone(value) } as Record<string, unknown>;
  const madeHuge = new Set<string>();
  for (const m of list) {
    if (m.op === 'huge') {
      const at = JSON.stringify(m.path);
      if (madeHuge.has(at)) continue;
      madeHuge.add(at);
    }
    let parent: unknown = root;
    let key: string | number = 'v';
    for (const step of m.path) {
      const next = (parent as Record<string | number, unknown>)[key];
      if (next === null || typeof next !== 'object') break;
      parent = next;
      key = step;
    }
    const holder = parent as Record<string | number, unknown>;
    if (m.op === 'delete') {
      if (Array.isArray(holder) && typeof key === 'number') holder.splice(key, 1);
      else delete holder[key];
    } else if (m.op === 'set')
      holder[key] = structuredClone(m.value); // a copy: constants are shared between runs
    else holder[key] = Array.from({ length: 20_000 }, () => holder[key]);
  }
  return root.v as T;
}
