/**
 * The result a job leaves (spec 2.4, notes §13, §15): a DPS summary synthesized from the profile's shape (actors,
 * profilesets, multistage eligibility), and the artifact list. As with a real sim, what a profile is worth depends on
 * the profile alone (seeded by its text: any change moves it; `# test.dps=N` sets the main actor's true DPS), and
 * each job draws its means around it with noise of the size of the error it reports (seeded by the job id, so a
 * job's numbers repeat across fetches): identical profiles agree within their error, as a regression gate expects.
 */
import { newId, seeded } from './ids.js';
import { multiStagePlan, scanProfile } from './profile.js';
import type { ActorEntry, ArtifactRecord, Job, JobResult, ProfilesetEntry, StageEntry, Summary } from './types.js';

export const SUMMARY_TOP = 200;

const round = (n: number) => Math.round(n * 100) / 100;

export function stageLabels(total: number): string[] {
  if (total === 3) return ['initial', 'intermediate', 'final'];
  if (total === 2) return ['initial', 'final'];
  return ['initial'];
}

type StagePlan = { enabled: boolean; reason: string; stages: number; candidates: number };
const stagePlans = new WeakMap<Job, StagePlan>();

/** Stages the job runs (1 for single pass), for progress while running and for the funnel. */
export function stagesOf(job: Job): StagePlan {
  const cached = stagePlans.get(job);
  if (cached) return cached;
  const scan = scanProfile(job.submission.profileText, []);
  const candidates = job.plan.profilesets ?? scan.profilesets.length;
  const plan = { ...multiStagePlan(job.submission.multiStage, scan, candidates), candidates };
  stagePlans.set(job, plan);
  return plan;
}

function summarize(job: Job): { summary: Summary; all: ProfilesetEntry[] } {
  const scan = scanProfile(job.submission.profileText, []);
  const plan = stagesOf(job);
  const text = job.submission.profileText;
  const truth = seeded(`profile\0${text}`);
  const draw = gaussian(seeded(job.id));
  const set = /^#\s*test\.dps=(\d+(?:\.\d+)?)\s*$/m.exec(text);
  const base = set ? Number(set[1]) : 100_000 + Math.floor(truth() * 50_000);
  const name = scan.actors[scan.mainActorIndex] ?? scan.actors[0] ?? 'Player';
  const stddev = base * 0.0005;
  const mainActor: NonNullable<Summary['mainActor']> = {
    name,
    mean: round(base + stddev * draw()),
    mean_stddev: round(stddev),
    mean_error: round(stddev * 1.96),
  };

  const n = plan.candidates;
  const names = Array.from(
    { length: n },
    (_, i) => scan.profilesets[i] ?? `profileset_${String(i + 1).padStart(4, '0')}`,
  );
  const worth = names.map((ps) => ({ ps, worth: base * (0.85 + 0.3 * truth()) }));
  const k = plan.enabled ? plan.stages : 1;
  const culled1 = k > 1 ? Math.floor(n * 0.6) : 0;
  const culled2 = k > 2 ? Math.floor((n - culled1) * 0.5) : 0;
  const funnel: StageEntry[] = !plan.enabled
    ? []
    : stageLabels(k).map((label, i) => ({
        stage: i + 1,
        label,
        profilesets: i === 0 ? n : i === 1 ? n - culled1 : n - culled1 - culled2,
        culled: i === k - 1 ? 0 : i === 0 ? culled1 : culled2,
      }));
  // Culled by what they are worth; each then measured at the precision of the stage it reached.
  const all = worth
    .sort((a, b) => b.worth - a.worth)
    .map(({ ps, worth: w }, rank): ProfilesetEntry => {
      const reached = rank >= n - culled1 ? 1 : rank >= n - culled1 - culled2 ? 2 : k;
      const sd = w * 0.0005 * (reached === k ? 1 : reached === 1 ? 8 : 3);
      return {
        name: ps,
        mean: round(w + sd * draw()),
        mean_stddev: round(sd),
        mean_error: round(sd * 1.96),
        stage: reached,
      };
    })
    .sort((a, b) => b.mean - a.mean);
  if (n > 0) mainActor.profilesets = { count: n, results: all.slice(0, SUMMARY_TOP) };
  const summary: Summary = {
    metric: 'dps',
    mainActor,
    multiStage: { enabled: plan.enabled, reason: plan.reason, stages: funnel },
  };
  // openapi 1.19.1: a copy= comparison lists every actor; profileset_metric=raid_dps headlines the group's total
  const players = [...scan.actors, ...scan.copies];
  const actors = players.map((actor, i): ActorEntry => {
    const main = actor === name && i === players.indexOf(name);
    const w = base * (0.9 + 0.2 * truth());
    const mean = main ? mainActor.mean : round(w + w * 0.0005 * draw());
    const sd = round(main ? stddev : w * 0.0005);
    return { name: actor, mean, mean_stddev: sd, mean_error: round(sd * 1.96) };
  });
  if (scan.copies.length > 0 && n === 0) {
    const ranked = [...actors].sort((a, b) => b.mean - a.mean);
    summary.actors = { count: ranked.length, results: ranked.slice(0, SUMMARY_TOP) };
  }
  if (scan.profilesetMetric === 'raid_dps' && actors.length > 0) {
    const total = round(actors.reduce((sum, a) => sum + a.mean, 0));
    const sd = round(Math.sqrt(actors.reduce((sum, a) => sum + a.mean_stddev ** 2, 0)));
    summary.metric = 'raid_dps';
    Object.assign(mainActor, { mean: total, mean_stddev: sd, mean_error: round(sd * 1.96) });
  }
  return { summary, all };
}

/** Standard normal draws from a uniform source (Box-Muller). */
function gaussian(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

function artifact(job: Job, kind: string, mimeType: string, stage: number | null, filename: string): ArtifactRecord {
  return { id: newId(), jobId: job.id, kind, mimeType, stage, filename };
}

function logArtifacts(job: Job): ArtifactRecord[] {
  return [
    artifact(job, 'input', 'text/plain', null, 'input.simc'),
    artifact(job, 'stdout_log', 'text/plain', null, 'stdout.log'),
    artifact(job, 'stderr_log', 'text/plain', null, 'stderr.log'),
  ];
}

/** A completed job: summary and every artifact (json per stage, html for the final stage only, one csv). */
export function completedResult(job: Job): JobResult {
  const { summary, all } = summarize(job);
  const stages = summary.multiStage.enabled ? summary.multiStage.stages.length : 0;
  const artifacts: ArtifactRecord[] = [];
  if (stages === 0) artifacts.push(artifact(job, 'json_report', 'application/json', null, 'report.json'));
  for (let s = 1; s <= stages; s++)
    artifacts.push(artifact(job, 'json_report', 'application/json', s, `report-stage${s}.json`));
  if (job.submission.html) artifacts.push(artifact(job, 'html_report', 'text/html', stages || null, 'report.html'));
  if (job.submission.csv) artifacts.push(artifact(job, 'csv_report', 'text/csv', null, 'result.csv'));
  artifacts.push(...logArtifacts(job));
  return { summary, allProfilesets: all, artifacts };
}

/** A job that ran and ended badly: no summary, but the input and logs. */
export function logsOnlyResult(job: Job): JobResult {
  return { summary: null, allProfilesets: [], artifacts: logArtifacts(job) };
}
