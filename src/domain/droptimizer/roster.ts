/**
 * A roster's answer: per character its best upgrade, and one row per character and item (the item's best slot),
 * which the terminal matrix, `--json`, `--report markdown=` and `--report csv=` all show.
 */
import type { ResultRecord } from '../../core/resources/schemas.js';
import { difference, rankByMean } from '../../util/stats.js';
import { analyseDrops, isUpgrade, type DroptimizerAnswer } from './analysis.js';
import type { DropPlan } from './plan.js';

export interface RosterInput {
  character: string;
  profile: string;
  plan: DropPlan;
  id?: string;
  state: string;
  record?: ResultRecord;
}

export interface RosterCharacter {
  character: string;
  profile: string;
  id: string | null;
  state: string;
  answer: DroptimizerAnswer | null;
}

export interface RosterRow {
  character: string;
  itemId: number;
  itemName: string;
  source: string;
  slot: string;
  deltaDps: number;
  deltaPercent: number | null;
  /** |Δ| is beyond the combined 95% error, a gain or a loss alike; null when the error is unknown. */
  significant: boolean | null;
  /** A gain beyond the error: what a wishlist tool should import. False for losses and unknown errors. */
  upgrade: boolean;
}

export interface Roster {
  characters: RosterCharacter[];
  rows: RosterRow[];
}

export function buildRoster(inputs: readonly RosterInput[]): Roster {
  const characters: RosterCharacter[] = [];
  const rows: RosterRow[] = [];
  for (const input of inputs) {
    const actor = input.record?.result.summary?.mainActor;
    const answer = actor?.profilesets ? analyseDrops(actor) : null;
    characters.push({
      character: input.character,
      profile: input.profile,
      id: input.id ?? null,
      state: input.state,
      answer,
    });
    if (!actor?.profilesets) continue;
    const byName = new Map(input.plan.sets.map((s) => [s.name, s]));
    const seen = new Set<number>();
    for (const p of rankByMean(actor.profilesets.results)) {
      const set = byName.get(p.name);
      if (!set || seen.has(set.drop.item.id)) continue; // best first: the first row of an item is its best slot
      seen.add(set.drop.item.id);
      const d = difference(actor, p);
      rows.push({
        character: input.character,
        itemId: set.drop.item.id,
        itemName: set.drop.item.name,
        source: set.drop.from,
        slot: set.slot,
        deltaDps: round(d.delta, 1),
        deltaPercent: d.percent === undefined ? null : round(d.percent, 2),
        significant: d.significant ?? null,
        upgrade: d.delta > 0 && d.significant === true,
      });
    }
  }
  return { characters, rows };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export interface MatrixItem {
  itemId: number;
  itemName: string;
  source: string;
  /** The largest gain any character gets from it, for the order of the rows. */
  top: number;
}

/** The items that are an upgrade for at least one character, the largest gain first; and each cell's row. */
export function rosterMatrix(roster: Roster): {
  items: MatrixItem[];
  cell: (character: string, itemId: number) => RosterRow | undefined;
} {
  const cells = new Map<string, RosterRow>();
  const items = new Map<number, MatrixItem>();
  for (const row of roster.rows) {
    cells.set(`${row.character}\u0000${row.itemId}`, row);
    if (!isUpgrade({ delta: row.deltaDps, significant: row.significant })) continue;
    const item = items.get(row.itemId) ?? {
      itemId: row.itemId,
      itemName: row.itemName,
      source: row.source,
      top: -Infinity,
    };
    item.top = Math.max(item.top, row.deltaPercent ?? row.deltaDps);
    items.set(row.itemId, item);
  }
  return { items: [...items.values()].sort((a, b) => b.top - a.top), cell: (c, id) => cells.get(`${c}\u0000${id}`) };
}

const CSV_HEADER = ['character', 'item id', 'item name', 'source', 'slot', 'Δ dps', 'Δ %', 'significant', 'upgrade'];

/**
 * A text cell a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a CR) gets a leading ' as
 * OWASP's CSV-injection guidance says; numbers are written as numbers (-1.5 stays -1.5), never as text.
 */
const neutralise = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** RFC 4180: every field that holds a comma, quote or line break is quoted, quotes doubled; CRLF line ends. */
export function rosterCsv(rows: readonly RosterRow[]): string {
  const field = (v: string | number | boolean | null) => {
    const text = v === null ? '' : typeof v === 'string' ? neutralise(v) : String(v);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [
    CSV_HEADER,
    ...rows.map((r) => [
      r.character,
      r.itemId,
      r.itemName,
      r.source,
      r.slot,
      r.deltaDps,
      r.deltaPercent,
      r.significant,
      r.upgrade,
    ]),
  ];
  return `${lines.map((l) => l.map(field).join(',')).join('\r\n')}\r\n`;
}

export interface Named {
  name: string;
  /** The export's `server=`, when it has one. */
  realm: string | null;
  /** Where the export came from (a path, or stdin). */
  file: string;
}

/**
 * The roster's character names: the name alone, with its realm (`Name-realm`) only when two characters share the
 * name, and with the export's file name instead when the realm does not tell them apart.
 */
export function characterLabels(characters: readonly Named[]): string[] {
  const count = (key: (c: Named) => string) => {
    const n = new Map<string, number>();
    for (const c of characters) n.set(key(c), (n.get(key(c)) ?? 0) + 1);
    return (c: Named) => n.get(key(c))!;
  };
  const byName = count((c) => c.name);
  const withRealm = (c: Named) => (c.realm ? `${c.name}-${c.realm}` : c.name);
  const byRealm = count(withRealm);
  return characters.map((c) => {
    if (byName(c) === 1) return c.name;
    if (c.realm && byRealm(c) === 1) return withRealm(c);
    return `${c.name} (${c.file.split(/[\\/]/).pop()})`;
  });
}
