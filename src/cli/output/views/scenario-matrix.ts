import type { ResultRecord } from '../../../core/resources/schemas.js';
import { formatNumber } from '../../../util/format.js';
import type { Output } from '../io.js';
import { terminalSafeLine } from '../../../util/safe.js';
import { rankByMean } from '../../../util/stats.js';
import { printTable, type Column } from '../table.js';
import { DEFAULT_TOP } from './result.js';
import { plural } from '../../../util/plural.js';

export interface ScenarioJob {
  profile: string;
  scenario: string;
  id?: string;
  outcome?: ResultRecord;
  /** How it ended, when there is no DPS to show: `failed (simc_error)`, `not submitted`, `still running`. */
  state: string;
}

interface Cell {
  mean: number;
  error: number | null | undefined;
  rank: number;
}

interface MatrixRow {
  profile: string;
  name: string;
  actor: boolean;
  cells: Map<string, Cell | string>;
}

/**
 * A scenario batch as ONE table: a Profile column, then the actor and its profilesets as rows, one column per
 * scenario. Each cell is `DPS ± error #rank`, the rank among the actor and the profilesets of that profile in that
 * scenario (from the summaries: the top 200 profilesets of each job). A job without DPS shows how it ended.
 */
export function printScenarioMatrix(out: Output, jobs: readonly ScenarioJob[], top = DEFAULT_TOP): void {
  const scenarios = unique(jobs.map((j) => j.scenario));
  const rows: MatrixRow[] = [];
  for (const profile of unique(jobs.map((j) => j.profile)))
    rows.push(
      ...profileRows(
        jobs.filter((j) => j.profile === profile),
        scenarios,
        top,
      ),
    );
  const c = out.c;
  const tty = out.stdoutIsTTY;
  // On a terminal the scenarios are stacked in tables narrow enough to fit it (cells wrap, never cut); piped, one.
  const perTable = tty ? scenariosThatFit(out.width ?? 100) : scenarios.length;
  for (let first = 0; first < scenarios.length; first += perTable) {
    out.line();
    const columns: Array<Column<MatrixRow>> = [
      // On a terminal the profile is named once per group; piped, on every row, so each line stands alone.
      // The profile gives up width first (named once per group, it wraps at little cost), then the widest column.
      {
        header: 'Profile',
        value: (r, i) => (tty && rows[i - 1]?.profile === r.profile ? '' : terminalSafeLine(r.profile)),
        shrinkable: true,
      },
      {
        header: 'Name',
        value: (r) => terminalSafeLine(r.actor ? `${r.name} (actor)` : r.name),
        style: (t, r) => (r.actor ? c.cyan(t) : t),
      },
      ...scenarios.slice(first, first + perTable).map((s): Column<MatrixRow> => ({
        header: terminalSafeLine(s),
        value: (r) => show(r.cells.get(s)),
        align: 'right',
        style: (t, r) => (typeof r.cells.get(s) === 'string' ? c.red(t) : /#1$/.test(t) ? c.bold(t) : t),
      })),
    ];
    printTable(out, rows, columns);
  }
  const ended = new Map<string, number>();
  for (const j of jobs) {
    const key = j.outcome?.status ?? j.state;
    ended.set(key, (ended.get(key) ?? 0) + 1);
  }
  const profiles = unique(jobs.map((j) => j.profile)).length;
  out.notice(
    out.ce.dim(
      `${jobs.length} jobs (${plural(profiles, 'profile')} × ${plural(scenarios.length, 'scenario')}): ${[...ended].map(([k, n]) => `${n} ${terminalSafeLine(k)}`).join(', ')}. Cells: DPS ± 95% error #rank in the column.`,
    ),
  );
  const bad = jobs.filter((j) => !actorOf(j));
  for (const j of bad)
    out.notice(
      `  ${terminalSafeLine(j.profile)} [${terminalSafeLine(j.scenario)}]  ${j.id ?? '(no job)'}  ${terminalSafeLine(j.state)}`,
    );
}

/**
 * Scenario columns per table on a terminal this wide: the profile and name columns at 12 and 16, each cell at 12
 * (`1,234,567.8 ±` wraps above `30.2 #12`), two spaces between columns.
 */
function scenariosThatFit(width: number): number {
  return Math.max(1, Math.floor((width - 12 - 2 - 16) / (12 + 2)));
}

function profileRows(jobs: readonly ScenarioJob[], scenarios: readonly string[], top: number): MatrixRow[] {
  const actorName = jobs.map(actorOf).find(Boolean)?.name ?? '';
  const actorRow: MatrixRow = { profile: jobs[0]?.profile ?? '', name: actorName, actor: true, cells: new Map() };
  const setRows = new Map<string, MatrixRow>();
  const shown = new Set<string>();
  for (const scenario of scenarios) {
    const job = jobs.find((j) => j.scenario === scenario);
    const actor = job && actorOf(job);
    if (!job) continue;
    if (!actor) {
      actorRow.cells.set(scenario, job.state);
      continue;
    }
    const entries = rankByMean([
      { name: '', mean: actor.mean, mean_error: actor.mean_error, actor: true },
      ...(actor.profilesets?.results ?? []).map((p) => ({ ...p, actor: false })),
    ]);
    entries.forEach((e, i) => {
      const cell = { mean: e.mean, error: e.mean_error, rank: i + 1 };
      if (e.actor) return void actorRow.cells.set(scenario, cell);
      if (!setRows.has(e.name))
        setRows.set(e.name, { profile: actorRow.profile, name: e.name, actor: false, cells: new Map() });
      setRows.get(e.name)!.cells.set(scenario, cell);
    });
    // The best N of every column are listed, so no scenario's leaders are hidden.
    for (const e of entries.filter((x) => !x.actor).slice(0, top)) shown.add(e.name);
  }
  const first = (r: MatrixRow) => {
    for (const s of scenarios) {
      const cell = r.cells.get(s);
      if (cell && typeof cell !== 'string') return cell.rank;
    }
    return Number.POSITIVE_INFINITY;
  };
  const sets = [...setRows.values()].filter((r) => shown.has(r.name)).sort((a, b) => first(a) - first(b));
  return [actorRow, ...sets];
}

function show(cell: Cell | string | undefined): string {
  if (cell === undefined) return '—';
  if (typeof cell === 'string') return terminalSafeLine(cell);
  return `${formatNumber(cell.mean, 1)} ± ${formatNumber(cell.error, 1)} #${cell.rank}`;
}

function actorOf(job: ScenarioJob) {
  return job.outcome?.result.summary?.mainActor ?? undefined;
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
