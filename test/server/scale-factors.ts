/**
 * simc's scale factors in the spec server's JSON report: a profile with `calculate_scale_factors=1` gets, under its
 * player, `scale_factors` for the stats `scale_only=` names (deterministic per job, like its other numbers) and
 * `scale_deltas` (simc's 154), as a real json2 report has them (spec/stat-weights.md). They are synthetic.
 */
import { seeded } from './ids.js';
import type { Job } from './types.js';

/** `scale_only` names → the report's keys. */
const REPORT_KEYS: Record<string, string> = {
  str: 'Str',
  strength: 'Str',
  agi: 'Agi',
  agility: 'Agi',
  int: 'Int',
  intellect: 'Int',
  crit: 'Crit',
  haste: 'Haste',
  mastery: 'Mastery',
  vers: 'Vers',
  versatility: 'Vers',
  wdps: 'Wdps',
};

export function scaleFactorsOf(job: Job): Record<string, unknown> {
  const text = job.submission.profileText;
  if (!/^\s*calculate_scale_factors\s*=\s*1\s*$/m.test(text)) return {};
  const only = [...text.matchAll(/^\s*scale_only\s*=\s*(\S+)\s*$/gm)].at(-1)?.[1] ?? 'crit,haste,mastery,vers';
  const keys = only
    .split(',')
    .map((k) => REPORT_KEYS[k.trim().toLowerCase()])
    .filter((k): k is string => Boolean(k));
  const rand = seeded(`${job.id}/scale`);
  // Two decimals, as a Pawn string shows them: a third one ending in 5 rounds either way after any arithmetic.
  const factors = Object.fromEntries(keys.map((k) => [k, Math.round((5 + 10 * rand()) * 100) / 100]));
  const deltas = Object.fromEntries(keys.map((k) => [k, 154]));
  return { scale_factors: factors, scale_factors_all: { dps: factors }, scale_deltas: deltas };
}
