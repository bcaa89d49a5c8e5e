/**
 * The webhook event ids `webhook listen` has processed, kept in the data folder so that a restart inside the
 * sender's retry window runs nothing twice (spec 6.5: deduplicate by X-Service-Event-Id).
 *
 * Rules: an id is forgotten `ttlMs` after it was seen (the signature tolerance window: a recorded delivery replayed
 * later fails the timestamp check anyway) and at most MAX_SEEN ids are kept, the oldest forgotten first. The file is
 * replaced atomically; each write merges what another listener on the same data folder wrote meanwhile. A damaged
 * or foreign file is not fatal: the listener starts with what it can read and says so once.
 */
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { writeJsonAtomic } from '../../util/data-files.js';

const MAX_SEEN = 10_000;

export interface SeenEvents {
  has(eventId: string): boolean;
  /** Remember an id; resolves once it is on disk (a failed write is reported, not thrown). */
  add(eventId: string): Promise<void>;
}

interface SeenFile {
  version: 1;
  /** event id → ms since the epoch when it was processed. */
  seen: Record<string, number>;
}

export interface SeenStoreOptions {
  ttlMs: number;
  now?: () => number;
  max?: number;
  /** A problem worth one line (damaged file, failed write); the listener keeps running. */
  onProblem?: (text: string) => void;
}

/** Only in memory (tests, or no data folder). */
export function memorySeenEvents(options: SeenStoreOptions): SeenEvents {
  const ids = new Map<string, number>();
  const now = options.now ?? Date.now;
  return {
    has: (id) => fresh(ids, id, now(), options.ttlMs),
    add: async (id) => {
      ids.set(id, now());
      prune(ids, now(), options.ttlMs, options.max ?? MAX_SEEN);
    },
  };
}

/** Backed by a JSON file; loads it now. */
export async function fileSeenEvents(path: string, options: SeenStoreOptions): Promise<SeenEvents> {
  const now = options.now ?? Date.now;
  const max = options.max ?? MAX_SEEN;
  const ids = await load(path, options.onProblem);
  prune(ids, now(), options.ttlMs, max);
  let writing: Promise<void> = Promise.resolve();
  return {
    has: (id) => fresh(ids, id, now(), options.ttlMs),
    add(id) {
      ids.set(id, now());
      // One write at a time, in order; each merges the file's current ids (another listener's) first.
      writing = writing.then(async () => {
        for (const [other, at] of await load(path, undefined))
          if (!ids.has(other) || (ids.get(other) ?? 0) < at) ids.set(other, at);
        prune(ids, now(), options.ttlMs, max);
        try {
          await fs.mkdir(dirname(path), { recursive: true });
          await writeJsonAtomic(path, { version: 1, seen: Object.fromEntries(ids) } satisfies SeenFile);
        } catch (error) {
          options.onProblem?.(
            `could not save the seen event ids to ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); a restart may run a redelivered event again`,
          );
        }
      });
      return writing;
    },
  };
}

function fresh(ids: Map<string, number>, id: string, now: number, ttlMs: number): boolean {
  const at = ids.get(id);
  return at !== undefined && now - at <= ttlMs;
}

/** Drop expired ids, then the oldest past `max`. */
function prune(ids: Map<string, number>, now: number, ttlMs: number, max: number): void {
  for (const [id, at] of ids) if (now - at > ttlMs) ids.delete(id);
  if (ids.size <= max) return;
  const oldestFirst = [...ids].sort((a, b) => a[1] - b[1]);
  for (const [id] of oldestFirst.slice(0, ids.size - max)) ids.delete(id);
}

/** The ids in the file; a missing file is empty, a damaged one is empty with a problem reported. */
async function load(path: string, onProblem: SeenStoreOptions['onProblem']): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      onProblem?.(`could not read ${path} (${code ?? (error as Error).message}); starting with no seen event ids`);
    return ids;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    onProblem?.(`${path} is damaged (not JSON); starting with no seen event ids, and it is replaced on the next event`);
    return ids;
  }
  const seen = (doc as Partial<SeenFile> | null)?.seen;
  if (typeof seen !== 'object' || seen === null || Array.isArray(seen)) {
    onProblem?.(
      `${path} is not a seen-events file; starting with no seen event ids, and it is replaced on the next event`,
    );
    return ids;
  }
  for (const [id, at] of Object.entries(seen)) if (typeof at === 'number' && Number.isFinite(at)) ids.set(id, at);
  return ids;
}
