/**
 * While this command runs the local queue (it waits, and no background worker was running: src/core/local/host.ts),
 * the signals that would leave the queue with nobody hand it over first: Ctrl-Z (SIGTSTP) hands over, then stops
 * the process as Ctrl-Z does; SIGTERM and SIGHUP hand over, then end it with their usual exit status. Ctrl-C needs
 * nothing here: it ends the wait, and the wait hands over as it ends.
 */
import { constants } from 'node:os';

/** A hand-over that has not ended by then (a webhook delivery that will not stop) does not hold the signal up. */
const HAND_OVER_LIMIT_MS = 5_000;

export function handOverOnSignals(handOver: () => Promise<void>): () => void {
  /** Hand over, then `then` — at the latest after HAND_OVER_LIMIT_MS (a timer that also keeps the process up). */
  const handOverThen = (then: () => void) => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      then();
    };
    const limit = setTimeout(once, HAND_OVER_LIMIT_MS);
    void handOver().finally(once);
  };
  const onStop = () => handOverThen(() => process.kill(process.pid, 'SIGSTOP'));
  const onEnd = (signal: 'SIGTERM' | 'SIGHUP') => () =>
    handOverThen(() => process.exit(128 + constants.signals[signal]));
  const onTerm = onEnd('SIGTERM');
  const onHup = onEnd('SIGHUP');
  const jobControl = process.platform !== 'win32'; // Windows has no Ctrl-Z stop to hand over before
  if (jobControl) process.on('SIGTSTP', onStop);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHup);
  return () => {
    if (jobControl) process.off('SIGTSTP', onStop);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onHup);
  };
}
