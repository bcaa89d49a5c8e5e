import type { Context } from '../context.js';
import { LocalError } from '../errors.js';
import type { JobBackend } from '../jobs/backend.js';

/** Placeholder until local mode lands: says so plainly instead of pretending. */
export async function createLocalBackend(_ctx: Context): Promise<JobBackend> {
  throw new LocalError('Local mode is not available in this build yet.');
}
