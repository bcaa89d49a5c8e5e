import { LOCAL_ID_PREFIX } from '../jobs/ids.js';
import { randomDigits } from '../../util/random.js';

/** Crockford's base32 in lower case (no i, l, o, u): ids read aloud and typed without ambiguity. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_CHARS = 10;
const RANDOM_CHARS = 8;

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/** Add one to a base-32 digit array, so ids made in the same millisecond by this process still sort in order. */
function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if ((next[i] ?? 0) < 31) {
      next[i] = (next[i] ?? 0) + 1;
      return next;
    }
    next[i] = 0;
  }
  return randomDigits(RANDOM_CHARS, 32);
}

/**
 * `local-` + 10 characters of milliseconds + 8 random characters (like a ULID): ids sort by submission time, so
 * sorting the folder names gives the queue's submission order and `jobs` its newest-first order.
 */
export function newLocalJobId(): string {
  const now = Date.now();
  if (now === lastTime) lastRandom = increment(lastRandom);
  else {
    lastTime = now;
    lastRandom = randomDigits(RANDOM_CHARS, 32); // they only keep apart ids made in the same millisecond
  }
  return `${LOCAL_ID_PREFIX}${encodeTime(now)}${lastRandom.map((d) => ALPHABET[d]).join('')}`;
}

const ID_PATTERN = new RegExp(`^${LOCAL_ID_PREFIX}[${ALPHABET}]{${TIME_CHARS + RANDOM_CHARS}}$`);

export function isWellFormedLocalId(id: string): boolean {
  return ID_PATTERN.test(id);
}
