/** `npm run demo`: its hints (the share link, the download command) point at something that exists after it ends. */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { simjob } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { tempDir } from '../helpers/temp.js';
import { cleanUp, type LocalEnv } from './local-helpers.js';

const home = join(tempDir('simjob-demo-test-'), 'demo');
const env: LocalEnv = { SIMJOB_DATA_DIR: join(home, 'data'), SIMJOB_CONFIG_DIR: join(home, 'config') };
afterAll(() => cleanUp(env));

it('ranks the example profile; the share link, and the download hint run with the printed export, work afterwards', async () => {
  const demo = await execa(process.execPath, [resolve(REPO_ROOT, 'scripts', 'demo.mjs')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      SIMJOB_DEMO_DIR: home,
      NO_COLOR: '1',
    },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  expect(demo.exitCode, demo.stderr).toBe(0);
  expect(demo.stdout).toMatch(/^Build {7}local simc /m);
  const share = /^Share +(file:\S+)$/m.exec(demo.stdout)?.[1];
  expect(share, demo.stdout).toBeDefined();
  expect(existsSync(fileURLToPath(share!))).toBe(true);

  expect(demo.stderr).toContain(
    `export SIMJOB_DATA_DIR=${env.SIMJOB_DATA_DIR} SIMJOB_CONFIG_DIR=${env.SIMJOB_CONFIG_DIR}`,
  );
  const hint = /Download them with: simjob (artifacts \S+ --download)/.exec(demo.stdout + demo.stderr)?.[1];
  expect(hint).toBeDefined();
  const cwd = tempDir('simjob-demo-cwd-');
  const download = await simjob(hint!.split(' '), { env, cwd });
  expect(download.exitCode, download.stderr).toBe(0);
  expect(existsSync(join(cwd, hint!.split(' ')[1]!, 'json_report.json'))).toBe(true);
}, 90_000);
