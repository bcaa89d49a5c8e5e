import type { StatusRecord } from './schemas.js';

/**
 * The status record (notes §8) checked without zod, for `simjob status` and every poll of a wait: importing zod and
 * building the schema cost more of start-up than the request itself. It accepts only what
 * schemas.ts's StatusRecord accepts, and reads as leniently (any status string, fields a newer server adds kept):
 * test/unit/status-shape.test.ts holds the two to the same verdicts. What it does not accept goes to the schema,
 * which says what is wrong, as before.
 */
type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === 'string';
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value); // as z.number(): no Infinity
const isBoolean: Check = (value) => typeof value === 'boolean';
const nullish =
  (check: Check): Check =>
  (value) =>
    value === undefined || value === null || check(value);
const arrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
/** An object with these fields (and any others). */
const shape = (fields: Record<string, Check>): Check => {
  const entries = Object.entries(fields);
  return (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    entries.every(([key, check]) => check((value as Record<string, unknown>)[key]));
};

const nstr = nullish(isString);
const nnum = nullish(isNumber);

const checkStatusRecord = shape({
  status: isString,
  errorCode: nstr,
  statusReason: nstr,
  simcExitCode: nullish((value) => isString(value) || isNumber(value)),
  queue: nullish(shape({ queuedAt: nstr, estimatedStartSeconds: nnum, estimatedStartUpdatedAt: nstr })),
  progress: nullish(
    shape({ percent: nnum, stage: nullish(shape({ current: nnum, total: nnum, label: nstr, percent: nnum })) }),
  ),
  logEntries: nullish(arrayOf(shape({ source: nstr, message: nstr, ts: nnum }))),
  startedAt: nstr,
  updatedAt: nstr,
  retried: nullish(isBoolean),
});

export const isStatusRecord = (value: unknown): value is StatusRecord => checkStatusRecord(value);
