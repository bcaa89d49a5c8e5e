import { UsageError } from '../errors.js';
import { closestValue } from './similar.js';

/** Value parsers shared by command flags and config settings: each rejects bad input with a one-line error naming the flag or setting. */

export function positiveInteger(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) {
      throw new UsageError(`${flag} must be a positive whole number (got "${value}").`);
    }
    return n;
  };
}

export function oneOf<T extends string>(flag: string, allowed: readonly T[]) {
  return (value: string): T => {
    if (!(allowed as readonly string[]).includes(value)) {
      const meant = closestValue(value, allowed);
      throw new UsageError(
        `${flag} must be one of ${allowed.join(', ')} (got "${value}").`,
        meant && `Did you mean ${meant}?`,
      );
    }
    return value as T;
  };
}

/** The longest duration a timer can wait (2^31 − 1 ms, about 24.8 days): longer ones would fire at once. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** Durations like 90, 90s, 15m, 2h (seconds when bare), up to MAX_DURATION_MS. */
export function duration(flag: string) {
  return (value: string): number => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
    if (!match) throw new UsageError(`${flag} must be a duration such as 90s, 15m or 2h (got "${value}").`);
    const n = Number(match[1]);
    const unit = match[2] ?? 's';
    const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
    const ms = Math.round(n * factor);
    if (!(ms <= MAX_DURATION_MS)) throw new UsageError(`${flag} must be at most 596h (got "${value}").`);
    return ms;
  };
}

/** A percentage or threshold: 0, 1, 2.5. */
export function nonNegativeNumber(flag: string) {
  return (value: string): number => {
    if (!/^(\d+(\.\d+)?|\.\d+)$/.test(value.trim()))
      throw new UsageError(`${flag} must be a number of 0 or more, e.g. 1 or 2.5 (got "${value}").`);
    return Number(value);
  };
}

/** A number above 0: 0.05, 2, .5. */
export function positiveNumber(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^(\d+(\.\d+)?|\.\d+)$/.test(value.trim()) || !(n > 0)) {
      throw new UsageError(`${flag} must be a number above 0, e.g. 0.05 (got "${value}").`);
    }
    return n;
  };
}
