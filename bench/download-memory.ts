/**
 * Peak memory of `simjob artifacts <id> --download` for artifacts of growing size: streamed to disk, the peak RSS
 * should stay flat. Uses GNU time's %M (max RSS, KiB).
 * Run: npm run build && node scripts/tsrun.mjs bench/download-memory.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN as bin, startServerProcess } from './lib/server-process.js';

const sizesMb = [1, 50, 500];
const server = await startServerProcess(['--queue-ms', '10', '--run-ms', '10']);
const dir = mkdtempSync(join(tmpdir(), 'simjob-dlmem-'));
const env = { ...process.env, SIMJOB_CONFIG_DIR: join(dir, 'cfg'), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' };
try {
  console.log('artifact size   peak RSS of simjob artifacts --download');
  for (const mb of sizesMb) {
    const bytes = mb * 1024 * 1024;
    const { id } = JSON.parse(execFileSync(process.execPath, [bin, 'submit', '-', '--channel', 'nightly', '--json', '--meta', `test.artifactBytes=${bytes}`], { env, input: 'warrior="Mem"\n' }).toString()) as { id: string };
    await server.waitForJob(id);
    const out = join(dir, `out-${mb}`);
    const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, bin, 'artifacts', id, '--download', '--kind', 'json_report', '-o', out], { env });
    if (run.status !== 0) throw new Error(run.stderr.toString());
    const kib = Number(run.stderr.toString().trim().split('\n').pop());
    const written = statSync(join(out, 'json_report.json')).size;
    console.log(`${String(mb).padStart(6)} MB       ${(kib / 1024).toFixed(1).padStart(6)} MB   (wrote ${written.toLocaleString('en-US')} bytes)`);
  }
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
