/**
 * The files of one simc pass and simc's argv for it: small on purpose, as the head start (head-start.ts) needs
 * them before the CLI has loaded.
 */
import type { LocalJob } from './store.js';

export interface PassFiles {
  /** Profile to run, relative to the job folder (simc's cwd). */
  input: string;
  jsonVersion: '2' | '3';
  json: string;
  html: string | null;
  text: string;
  stdout: string;
  stderr: string;
}

/** The files of a job run in one pass; a staged job (src/multistage/local.ts) names its own for each stage. */
export const SINGLE_PASS_FILES = (job: Pick<LocalJob, 'outputs'>): PassFiles => ({
  input: 'input.simc',
  jsonVersion: job.outputs.jsonVersion,
  json: 'report.json',
  html: job.outputs.html ? 'report.html' : null,
  text: 'simc-output.txt',
  stdout: 'stdout.log',
  stderr: 'stderr.log',
});

/** simc's argv for one pass: the profile, then the report options (sim options, so their place after it is fine). */
export function simcArgs(files: PassFiles): string[] {
  const json = files.jsonVersion === '3' ? `json=${files.json},version=3.0.0-alpha1` : `json2=${files.json}`;
  return [files.input, json, ...(files.html ? [`html=${files.html}`] : []), `output=${files.text}`, 'progressbar_type=1'];
}
