/**
 * Entry of dist/worker-start.js: start the local worker at the very beginning of `simjob submit … --local`, before
 * the CLI bundle loads, so the worker's Node start-up runs alongside the CLI's instead of after it (issue 4: it
 * is on the path of every cold `submit --local --wait`). bin/simjob.js imports it only for such command lines.
 *
 * It uses ensureWorker's single-instance logic as is; a worker started before the job is written finds it with
 * its queue watch (or tick) within its idle grace, and if the CLI takes longer than that, the submit's own
 * ensureWorker after queueing starts another. Anything that goes wrong here is ignored: the submit path does
 * the same work again and reports its errors itself.
 */
import { dataDir } from '../config/paths.js';
import { ensureWorker } from './worker-process.js';
import { LocalStore } from './store.js';

/**
 * The worker's environment for this command line, as the local backend's workerEnvFor would give it (the
 * profile chosen by -p/--profile travels as SIMJOB_PROFILE), or undefined when the command line is not a
 * local submit that will run jobs, or is not plain enough to read without the CLI's parser.
 */
export function earlyWorkerEnv(args: readonly string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv | undefined {
  const end = args.indexOf('--');
  const flags = end === -1 ? args : args.slice(0, end);
  if (!flags.includes('submit') || !flags.includes('--local')) return undefined;
  if (flags.some((a) => a === '--dry-run' || a === '--help' || a === '-h')) return undefined;
  // A waiting submit runs its job itself when the queue has room (inline.ts), and starts a worker only if not.
  if (flags.includes('--wait') || flags.some((a) => /^-[a-zA-Z]*w/.test(a) && !a.startsWith('--'))) return undefined;
  let profile: string | undefined;
  for (let i = 0; i < flags.length; i++) {
    const arg = flags[i] as string;
    if (arg === '--profile' || arg === '-p') profile = flags[++i];
    else if (arg.startsWith('--profile=')) profile = arg.slice('--profile='.length);
    else if (/^-[a-zA-Z]*p/.test(arg) && !arg.startsWith('--')) return undefined; // -pname, -qp name: leave it to the CLI
    else continue;
    if (!profile) return undefined;
  }
  return profile === undefined ? env : { ...env, SIMJOB_PROFILE: profile };
}

export async function startWorkerEarly(args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const workerEnv = earlyWorkerEnv(args, env);
  if (!workerEnv) return;
  try {
    const store = new LocalStore(dataDir(env));
    await store.init();
    await ensureWorker(store, workerEnv);
  } catch {
    // the submit itself reports what is wrong with the data dir or the installation
  }
}
