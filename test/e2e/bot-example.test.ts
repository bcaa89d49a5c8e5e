/**
 * examples/bot.mjs, the README's bot, as its users run it: imported through the package name (the built library in
 * dist/), answering a chat message that holds a /simc export, against the test server and the stand-in simc.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { cleanUp, FAKE_SIMC, localEnv, type LocalEnv } from './local-helpers.js';

interface Bot {
  exportIn(message: string): string | undefined;
  replyTo(message: string, client: unknown, options?: Record<string, unknown>): Promise<string | undefined>;
}
interface Library {
  createClient(options: Record<string, unknown>): { close(): Promise<void> };
}

const exportText = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'addon', 'fury-bags-vault.txt'), 'utf8');
const message = `can someone sim me?\n\`\`\`\n${exportText}\n\`\`\`\nthanks`;
let bot: Bot;
let simjob: Library;
let server: TestServer;

beforeAll(async () => {
  bot = (await import(join(REPO_ROOT, 'examples', 'bot.mjs'))) as Bot;
  simjob = (await import('simjob' as string)) as Library;
  server = await startServer({ queueMs: 20, runMs: 200 });
});
afterAll(async () => {
  await server.close();
});

describe('the bot example', () => {
  it('finds the export in a chat message, and stays quiet without one', async () => {
    expect(bot.exportIn(message)).toBe(exportText.trim());
    const client = simjob.createClient({ baseUrl: server.url, apiKey: 'sk_test_good' });
    expect(await bot.replyTo('gz on the kill', client)).toBeUndefined();
  });

  it('replies with what to equip, from the service', async () => {
    const client = simjob.createClient({ baseUrl: server.url, apiKey: 'sk_test_good' });
    const statuses: string[] = [];
    const reply = await bot.replyTo(message, client, {
      slots: ['trinket'],
      onProgress: (s: { status: string }) => statuses.push(s.status),
    });
    expect(reply).toMatch(/^Top gear for Examplewar \(fury warrior\), \d+ combinations: (Equip|Keep|\d+ combinations)/);
    expect(statuses.at(-1)).toBe('completed');
    const submitted = server.requests.find((r) => r.method === 'POST' && r.path === '/v1/sim/jobs');
    expect(submitted).toBeDefined();
    await client.close();
  });

  it('says what is wrong with a broken export, in one reply', async () => {
    const client = simjob.createClient({ baseUrl: server.url, apiKey: 'sk_test_good' });
    const reply = await bot.replyTo(message, client, { slots: ['nose'] });
    expect(reply).toMatch(/^Sorry: .*nose/);
  });

  describe('on a machine with simc', () => {
    let env: LocalEnv;
    afterEach(async () => cleanUp(env));

    it('replies from a local run of the stand-in simc', async () => {
      env = localEnv();
      const client = simjob.createClient({ local: true, simc: FAKE_SIMC, dataDir: env.SIMJOB_DATA_DIR });
      const reply = await bot.replyTo(message, client, { slots: ['trinket', 'finger'] });
      expect(reply).toMatch(/^Top gear for Examplewar \(fury warrior\), \d+ combinations: /);
      expect(reply).not.toMatch(/no answer/);
    });
  });
});
