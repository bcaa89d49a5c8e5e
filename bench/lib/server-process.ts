import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const BIN = resolve(REPO_ROOT, 'bin', 'simjob.js');

export interface ServerProcess {
  url: string;
  artifactUrl: string;
  /** Wait until a job is terminal, asking the server's status endpoint. */
  waitForJob(id: string, apiKey?: string): Promise<void>;
  stop(): void;
}

/**
 * The spec test server in its own process, so a bench's synchronous timing loops never stall it and its work is
 * not counted in the bench process.
 */
export async function startServerProcess(args: string[] = []): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [resolve(REPO_ROOT, 'scripts', 'tsrun.mjs'), resolve(REPO_ROOT, 'test', 'server', 'main.ts'), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((done, fail) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', done);
    child.once('exit', (code) => fail(new Error(`test server exited with ${code}`)));
  });
  const { url, artifactUrl } = JSON.parse(line) as { url: string; artifactUrl: string };
  return {
    url,
    artifactUrl,
    async waitForJob(id, apiKey = 'sk_test_good') {
      for (;;) {
        const res = await fetch(`${url}/v1/sim/jobs/${id}/status`, { headers: { authorization: `Bearer ${apiKey}` } });
        const body = (await res.json()) as { status: string };
        if (['completed', 'failed', 'cancelled', 'timed_out'].includes(body.status)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: () => child.kill('SIGTERM'),
  };
}
