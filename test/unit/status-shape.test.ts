/**
 * The status record's check without zod (src/api/status-shape.ts) gives the same verdict as its schema
 * (StatusRecord in src/api/schemas.ts) on every record here: valid ones of each state, and each field, top-level or
 * nested, replaced by a value of every JSON type or left out. What it accepts, the schema accepts as it is.
 */
import { describe, expect, it } from 'vitest';
import { StatusRecord } from '../../src/api/schemas.js';
import { isStatusRecord } from '../../src/api/status-shape.js';

const queued = {
  status: 'queued',
  errorCode: null,
  statusReason: null,
  simcExitCode: null,
  queue: {
    queuedAt: '2026-01-01T00:00:00Z',
    estimatedStartSeconds: 4,
    estimatedStartUpdatedAt: '2026-01-01T00:00:01Z',
  },
  progress: { percent: null, stage: null },
  logEntries: null,
  startedAt: null,
  updatedAt: '2026-01-01T00:00:01Z',
  retried: false,
};
const running = {
  ...queued,
  status: 'running',
  queue: null,
  startedAt: '2026-01-01T00:00:05Z',
  progress: { percent: 40, stage: { current: 2, total: 3, label: 'Stage 2', percent: 12.5 } },
  logEntries: [{ source: 'simc', message: 'Generating baseline', ts: 1767225605 }],
};
const completed = {
  ...running,
  status: 'completed',
  simcExitCode: '0',
  progress: { percent: 100, stage: null },
  newerField: { any: ['thing'] },
};

/** A value of every JSON type (and the non-finite number a JSON text can still produce). */
const VALUES = [
  undefined,
  null,
  '',
  'text',
  0,
  -3,
  12.5,
  Number.POSITIVE_INFINITY,
  true,
  false,
  [],
  [{}],
  {},
  { a: 1 },
];

/** `record` with the field at `path` set to `value` (undefined: left out). */
function withField(record: object, path: string[], value: unknown): unknown {
  const copy = structuredClone(record) as Record<string, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== 'object' || next === null) return undefined;
    at = (Array.isArray(next) ? next[0] : next) as Record<string, unknown>;
  }
  const last = path.at(-1)!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

/** Every field path of a record, into nested objects and the first element of arrays. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  const object: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof object !== 'object' || object === null) return [];
  return Object.entries(object).flatMap(([key, field]) => [[...prefix, key], ...paths(field, [...prefix, key])]);
}

function expectSameVerdict(value: unknown): void {
  const parsed = StatusRecord.safeParse(value);
  expect(isStatusRecord(value), JSON.stringify(value)).toBe(parsed.success);
  if (parsed.success) expect(parsed.data).toEqual(value);
}

describe('isStatusRecord', () => {
  it('accepts the records of each state, fields a newer server adds included', () => {
    for (const record of [queued, running, completed]) {
      expect(isStatusRecord(record)).toBe(true);
      expectSameVerdict(record);
    }
  });

  it('agrees with the schema on every field replaced by a value of every type, or left out', () => {
    let cases = 0;
    for (const record of [queued, running, completed]) {
      for (const path of paths(record)) {
        for (const value of VALUES) {
          const changed = withField(record, path, value);
          if (changed === undefined) continue;
          expectSameVerdict(changed);
          cases++;
        }
      }
    }
    expect(cases).toBeGreaterThan(500);
  });

  it('agrees on what is not an object at all', () => {
    for (const value of VALUES) expectSameVerdict(value);
  });
});
