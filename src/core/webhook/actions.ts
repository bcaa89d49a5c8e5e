/**
 * What `webhook listen` does with a new event besides printing it: run the user's command, or forward the delivery.
 * Each throws ActionFailure when it did not succeed, so the listener answers 5xx and the sender retries (spec 6.5).
 */
import { spawn } from 'node:child_process';
import { isServiceShapedJobId } from '../jobs/ids.js';
import { deliveryHeaders, describeOutcome, isSuccess, postRaw } from './post.js';
import type { ReceivedEvent } from './listen.js';

export class ActionFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Variables the `--exec` command gets, besides the listener's own environment. */
function execEnvironment(received: ReceivedEvent): Record<string, string> {
  const { payload } = received.event;
  return {
    SIMJOB_EVENT_ID: received.eventId,
    SIMJOB_DELIVERY_ID: received.deliveryId,
    SIMJOB_EVENT_KIND: received.event.kind,
    SIMJOB_JOB_ID: payload.id,
    SIMJOB_JOB_STATUS: payload.status,
    SIMJOB_JOB_STATUS_REASON: payload.statusReason ?? '',
    SIMJOB_EVENT_JSON: received.rawBody.toString('utf8'),
  };
}

/**
 * Run the user's command through the shell (they wrote a shell command, pipes and all), with the event in its
 * environment and the raw body on its stdin. Its output goes to our stderr, so `--json` stdout stays JSON lines.
 * It is killed (its whole process group) when the signal aborts: the sender must get an answer within 10 s.
 */
export function runExec(
  command: string,
  received: ReceivedEvent,
  options: { env: NodeJS.ProcessEnv; signal: AbortSignal; log: (text: string) => void },
): Promise<void> {
  // A signed event is authentic, not proof that its id is safe where the command puts it (a file name, an
  // argument): refused for good (4xx, no retry), and the command never runs.
  const id = received.event.payload.id;
  if (!isServiceShapedJobId(id)) {
    const shown = JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);
    const why = `payload.id ${shown} is not a job id of the service (18 letters or digits, or local-…)`;
    return Promise.reject(new ActionFailure(`${why}; --exec did not run`, 400));
  }
  return new Promise((resolve, reject) => {
    const posix = process.platform !== 'win32';
    const child = spawn(command, {
      shell: true,
      env: { ...options.env, ...execEnvironment(received) },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: posix, // its own process group, so a timeout kills the command's children too
      windowsHide: true,
    });
    const kill = () => {
      try {
        if (posix && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const onAbort = () => kill();
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => options.log(chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => options.log(chunk.toString('utf8')));
    child.stdin.on('error', () => undefined); // a command that never reads stdin is fine
    child.stdin.end(received.rawBody);
    child.on('error', (error) => {
      options.signal.removeEventListener('abort', onAbort);
      reject(new ActionFailure(`--exec could not start: ${error.message}`, 500));
    });
    child.on('close', (code, signal) => {
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) reject(new ActionFailure('--exec did not finish in time and was stopped', 503));
      else if (code === 0) resolve();
      else reject(new ActionFailure(`--exec exited with ${code === null ? `signal ${signal}` : `code ${code}`}`, 500));
    });
  });
}

/** Re-post the delivery as received: the exact body and the service's headers, so the target can verify it too. */
export async function forwardDelivery(
  url: string,
  received: ReceivedEvent,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<void> {
  const outcome = await postRaw(url, received.rawBody, deliveryHeaders(received), { signal, timeoutMs });
  if (!isSuccess(outcome)) throw new ActionFailure(`--forward-to ${url} failed: ${describeOutcome(outcome)}`, 502);
}
