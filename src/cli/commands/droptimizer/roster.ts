/** The end of a roster run: one matrix in the terminal, one JSON document, and the --report files. */
import type { Context } from '../../context.js';
import type { BatchOutcome } from '../../submitting/batch.js';
import {
  buildRoster,
  characterLabels,
  rosterCsv,
  rosterMatrix,
  type Roster,
} from '../../../domain/droptimizer/roster.js';
import { cell, markdownTable } from '../../output/reports/markdown.js';
import { writeReport } from '../../output/reports/files.js';
import { signed } from '../../../util/format.js';
import { anySynthetic, SYNTHETIC_MARKDOWN, warnSynthetic } from '../../output/synthetic.js';
import type { AddonExport } from '../../../domain/addon/export.js';
import type { DropPlan } from '../../../domain/droptimizer/plan.js';
import type { ProfileInput } from '../../../core/jobs/submission.js';
import type { RosterReportTarget } from './report-spec.js';

/** One character of the run: its export, the drops planned for it and the profile that sims them. */
export interface CharacterRun {
  source: string;
  exp: AddonExport;
  plan: DropPlan;
  profile: ProfileInput;
}

export async function presentRoster(
  ctx: Context,
  characters: CharacterRun[],
  outcomes: BatchOutcome[],
  reports: RosterReportTarget[],
): Promise<void> {
  const labels = characterLabels(
    characters.map((c) => ({
      name: c.exp.characterName,
      realm: serverOf(c.exp.baseline),
      file: c.source === '-' ? 'stdin' : c.source,
    })),
  );
  const roster = buildRoster(
    characters.map((c, i) => ({
      character: labels[i]!,
      profile: c.source === '-' ? 'stdin' : c.source,
      plan: c.plan,
      id: outcomes[i]?.id,
      state: outcomes[i]?.state ?? 'not submitted',
      record: outcomes[i]?.record,
    })),
  );
  const synthetic = anySynthetic(outcomes.map((o) => o.record));
  // `synthetic` only when true, so a real roster's document keeps its shape
  if (ctx.out.json) ctx.out.printJson(synthetic ? { ...roster, synthetic: true } : roster);
  else {
    const { printRoster } = await import('../../output/views/droptimizer-roster.js');
    warnSynthetic(ctx.out, synthetic);
    printRoster(ctx.out, roster);
  }
  for (const t of reports) {
    if (t.format === 'csv') await writeReport(t.path, rosterCsv(roster.rows), 'CSV');
    else await writeReport(t.path, rosterMarkdown(roster, synthetic), 'Markdown');
  }
}

/** The export's realm (`server=twisting_nether`), or null. */
const serverOf = (baseline: readonly string[]): string | null =>
  baseline.map((l) => /^server=(\S+)$/.exec(l)?.[1]).find(Boolean) ?? null;

function rosterMarkdown(roster: Roster, synthetic: boolean): string {
  const people = markdownTable(
    ['Character', 'Job', 'State', 'Best upgrade', 'Δ dps', 'Δ %'],
    roster.characters.map((r) => {
      const best = r.answer?.verdict === 'none' ? undefined : r.answer?.best;
      return [
        cell(r.character),
        r.id ? `\`${cell(r.id)}\`` : '',
        cell(r.state),
        best ? cell(best.name) : 'nothing beats what is worn',
        best ? signed(best.delta, 1) : '',
        best?.percent != null ? `${signed(best.percent, 2)}%` : '',
      ];
    }),
    [4, 5],
  );
  const matrix = rosterMatrix(roster);
  const names = roster.characters.map((r) => r.character);
  const grid = matrix.items.length
    ? markdownTable(
        ['Item', 'Source', ...names.map(cell)],
        matrix.items.map((i) => [
          cell(i.itemName),
          cell(i.source),
          ...names.map((n) => {
            const row = matrix.cell(n, i.itemId);
            if (!row) return '';
            const text = row.deltaPercent === null ? signed(row.deltaDps, 1) : `${signed(row.deltaPercent, 2)}%`;
            return row.significant === false ? `${text} n.s.` : text;
          }),
        ]),
        names.map((_, k) => k + 2),
      )
    : 'Nothing in these sources beats what anyone wears.';
  const title = `## simjob droptimizer: ${roster.characters.length} characters`;
  const label = synthetic ? `${SYNTHETIC_MARKDOWN}\n\n` : '';
  return `${title}\n\n${label}${people}\n\n### Upgrades by character (Δ % in the item's best slot)\n\n${grid}\n`;
}
