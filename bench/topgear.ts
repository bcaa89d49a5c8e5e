/**
 * Top gear at scale: parse an addon export whose bags make about 10,000 combinations, build them, and write the
 * profile (the target: under 1 s for the lot), then the preflight analysis `submit` runs on that profile.
 * The export is fury-bags-vault.txt with extra bag items added (a ring, a cloak, boots, bracers).
 * Run: node scripts/tsrun.mjs bench/topgear.ts
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseAddonExport } from '../src/domain/addon/export.js';
import { planTopGear } from '../src/domain/topgear/combinations.js';
import { topGearProfile } from '../src/domain/topgear/profile.js';
import { analyzeProfile } from '../src/domain/profile/index.js';
import { median, printFigures } from './lib/figures.js';

const base = readFileSync(
  resolve(import.meta.dirname, '..', 'test', 'fixtures', 'addon', 'fury-bags-vault.txt'),
  'utf8',
);

/** The fixture with `n` more bag items per listed slot, inserted at the top of its bags. */
function biggerExport(extra: Record<string, number>): string {
  const lines: string[] = [];
  let id = 300_000;
  for (const [slot, n] of Object.entries(extra)) {
    for (let i = 0; i < n; i++)
      lines.push('#', `# Bench ${slot} ${i + 1} (${280 + i})`, `# ${slot}=,id=${id++},bonus_id=12806/13577`);
  }
  return base.replace('### Gear from Bags\n', `### Gear from Bags\n${lines.join('\n')}\n`);
}

const text = biggerExport({ finger1: 1, back: 1, feet: 1, wrist: 1 });
const runs: number[] = [];
let result: { count: number; bytes: number; sets: number } | undefined;
for (let i = 0; i < 7; i++) {
  const t0 = performance.now();
  const exp = parseAddonExport(text);
  const plan = planTopGear(exp, { slots: undefined });
  const profile = topGearProfile(exp, plan, 'bench.txt');
  runs.push(performance.now() - t0);
  result = { count: plan.count, bytes: Buffer.byteLength(profile.text), sets: profile.names.length };
}
const profileText = topGearProfile(parseAddonExport(text), planTopGear(parseAddonExport(text)), 'bench.txt').text;
const t1 = performance.now();
analyzeProfile(profileText);
const analysis = performance.now() - t1;

console.log(
  `combinations                      ${result?.count.toLocaleString('en-US')} (${result?.sets.toLocaleString('en-US')} profilesets)`,
);
console.log(
  `parse + build + write profile     median ${median(runs).toFixed(0)} ms of ${runs.length} runs (first ${runs[0]?.toFixed(0)} ms); target < 1000 ms`,
);
console.log(
  `profile size                      ${((result?.bytes ?? 0) / 1024 / 1024).toFixed(2)} MB (${Math.round((result?.bytes ?? 0) / (result?.sets ?? 1))} bytes a profileset; the service takes 2 MB)`,
);
console.log(`preflight analysis of the profile ${analysis.toFixed(0)} ms (what submit runs before sending)`);
printFigures([
  {
    name: `topgear: parse and build ${result?.count.toLocaleString('en-US')} combinations`,
    value: median(runs),
    unit: 'ms',
    max: 1000,
  },
  { name: 'topgear: profile size', value: (result?.bytes ?? 0) / 1024 / 1024, unit: 'MB' },
]);
