import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { CHANNELS, type Channel } from '../../../core/resources/enums.js';
import { CREDENTIALS_FILE, SETTINGS_FILE } from '../../../core/config/paths.js';
import type { Resolved } from '../../../core/config/resolve.js';
import type { Context } from '../../context.js';
import { ApiError, SimjobError } from '../../../errors.js';
import { userAgent } from '../../../version.js';
import { terminalSafe } from '../../../util/safe.js';
import { shellWord } from '../../../util/shell-word.js';
import { CAPS, readRegularFile } from '../../../util/read-file.js';

/** One line of `simjob doctor`: what was checked, whether it passed, what was found, and how to fix a failure. */
export interface Check {
  check: string;
  ok: boolean;
  detail: string;
  /** A one-line fix (a command to run, where possible); null when the check passed. */
  fix: string | null;
  /** A remote check not made because nothing remote is set up (a local-only setup): passed, not failed. */
  notSetUp?: true;
}

const PROBE_TIMEOUT_MS = 10_000;
const pass = (check: string, detail: string): Check => ({ check, ok: true, detail, fix: null });
const fail = (check: string, detail: string, fix: string): Check => ({ check, ok: false, detail, fix });

// -- files --------------------------------------------------------------------------------------------------------

/** The config dir: others must not be able to replace the files in it. */
export async function checkConfigDir(dir: string): Promise<Check> {
  const info = await statOrNull(dir);
  if (!info)
    return pass('config-dir', `${dir} (not created yet; \`simjob login\` or \`simjob config set\` creates it)`);
  if (!info.isDirectory())
    return fail('config-dir', `${dir} is not a folder.`, `Remove it, or point SIMJOB_CONFIG_DIR at a folder.`);
  if (process.platform === 'win32') return pass('config-dir', dir);
  const mode = info.mode & 0o777;
  if (mode & 0o022) {
    return fail(
      'config-dir',
      `${dir} is writable by other users (mode ${octal(mode)}).`,
      `chmod 700 ${shellWord(dir)}`,
    );
  }
  return pass('config-dir', `${dir} (mode ${octal(mode)})`);
}

/** config.json: valid JSON, and not writable by others (they could point base_url at a host that collects keys). */
export async function checkSettingsFile(dir: string): Promise<Check> {
  const path = join(dir, SETTINGS_FILE);
  const read = await readJson(path);
  if (read === 'missing') return pass('config-file', `${path} (none yet: only defaults and the environment apply)`);
  if (read === 'unreadable') return fail('config-file', `${path} cannot be read.`, `chmod 644 ${shellWord(path)}`);
  if (read === 'invalid')
    return fail(
      'config-file',
      `${path} is not valid JSON.`,
      `Fix or delete ${shellWord(path)}; \`simjob config set\` writes a new one.`,
    );
  const mode = read.mode;
  if (process.platform !== 'win32' && mode & 0o022) {
    return fail(
      'config-file',
      `${path} is writable by other users (mode ${octal(mode)}).`,
      `chmod 644 ${shellWord(path)}`,
    );
  }
  return pass('config-file', `${path} (mode ${octal(mode)}, profiles: ${profileNames(read.data)})`);
}

/** credentials.json holds API keys and signing secrets: mode 0600, nothing for group or others. */
export async function checkCredentialsFile(dir: string): Promise<Check> {
  const path = join(dir, CREDENTIALS_FILE);
  const read = await readJson(path);
  if (read === 'missing')
    return pass('credentials-file', `${path} (none yet: \`simjob login\` creates it with mode 0600)`);
  if (read === 'unreadable') return fail('credentials-file', `${path} cannot be read.`, `chmod 600 ${shellWord(path)}`);
  if (read === 'invalid')
    return fail(
      'credentials-file',
      `${path} is not valid JSON.`,
      `Delete ${shellWord(path)} and run \`simjob login\` again.`,
    );
  const mode = read.mode;
  if (process.platform !== 'win32' && mode & 0o077) {
    return fail(
      'credentials-file',
      `${path} is open to other users (mode ${octal(mode)}); it holds API keys.`,
      `chmod 600 ${shellWord(path)}`,
    );
  }
  return pass('credentials-file', `${path} (mode ${octal(mode)})`);
}

// -- the service --------------------------------------------------------------------------------------------------

/** Neither a base URL nor an API key anywhere: someone who only runs --local, for whom the remote checks are moot. */
export function remoteNotSetUp(ctx: Context): boolean {
  let url: unknown;
  try {
    url = ctx.config.baseUrlIfSet();
  } catch {
    return false; // a base URL is set, badly: its check says how to fix it
  }
  return url === undefined && !ctx.env.SIMJOB_API_KEY && !ctx.config.hasStoredKey();
}

/** The three remote checks of a local-only setup: each says it is not set up and how to set it up. */
export function remoteChecksNotSetUp(): Check[] {
  const notSetUp = (check: string, detail: string): Check => ({ check, ok: true, detail, fix: null, notSetUp: true });
  return [
    notSetUp('base-url', 'Not set up; only remote jobs need one (simjob login --base-url URL sets it).'),
    notSetUp('service', 'Not checked: no service is set up.'),
    notSetUp('api-key', "Not set up; a key comes from the service's Clients & Keys page, then simjob login."),
  ];
}

export function checkBaseUrl(ctx: Context): { check: Check; url: string | undefined } {
  try {
    const resolved = ctx.config.baseUrl();
    return {
      check: pass('base-url', `${resolved.value} (${sourceOf(ctx, resolved, '--base-url', 'SIMJOB_BASE_URL')})`),
      url: resolved.value,
    };
  } catch (error) {
    const fix =
      error instanceof SimjobError && error.hint
        ? error.hint
        : 'Set a valid one: `simjob config set base_url https://…`, SIMJOB_BASE_URL or --base-url.';
    return { check: fail('base-url', messageOf(error), fix), url: undefined };
  }
}

/** GET /v1/sim/usage without a key: any answer from the service (401 is the expected one) means it is reachable. */
export async function checkService(ctx: Context, baseUrl: string | undefined): Promise<Check> {
  if (!baseUrl) return fail('service', 'Not checked: no valid base URL.', 'Set the base URL first (see above).');
  const { exchange } = await import('../../../core/api/transport.js');
  const { describeNetworkError, MAX_ERROR_BYTES } = await import('../../../core/api/http.js');
  const url = new URL('v1/sim/usage', `${baseUrl}/`);
  const started = Date.now();
  let status: number;
  let body: string;
  try {
    const response = await exchange(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': userAgent() },
        timeoutMs: PROBE_TIMEOUT_MS,
        deadlineMs: PROBE_TIMEOUT_MS,
        signal: ctx.signal,
      },
      () => ({ bytes: MAX_ERROR_BYTES, truncate: true }),
      ctx.env,
    );
    status = response.statusCode;
    body = response.text;
  } catch (error) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const { proxyFor } = await import('../../../core/api/proxy-env.js');
    const proxy = proxyFor(url, ctx.env); // host:port only: a proxy URL may carry credentials
    return fail(
      'service',
      `Cannot reach ${url.origin}: ${describeNetworkError(error, url)}.`,
      proxy
        ? `Check the base URL, your connection and the proxy ${proxy.host} (${proxy.variable}).`
        : 'Check the base URL and your connection (behind a proxy? set HTTPS_PROXY).',
    );
  }
  const ms = Date.now() - started;
  if (status === 404) {
    return fail(
      'service',
      `${url.origin} answered 404 for ${url.pathname}.`,
      'The base URL must be the API root, the part before /v1/ (e.g. https://api.example.com).',
    );
  }
  if (status >= 500) {
    return fail(
      'service',
      `${url.origin} answered HTTP ${status} for ${url.pathname}.`,
      'The service is failing; try again later.',
    );
  }
  if (!isJsonObject(body)) {
    return fail(
      'service',
      `${url.origin} answered HTTP ${status} without a JSON body.`,
      'Check that the base URL points at the Simulation Job Service.',
    );
  }
  return pass('service', `${url.origin} answered in ${ms} ms`);
}

/** The key: set, and accepted by GET /v1/sim/usage. Never printed. */
export async function checkApiKey(ctx: Context, baseUrl: string | undefined, serviceOk: boolean): Promise<Check> {
  let key: Resolved<string>;
  try {
    key = ctx.config.apiKey();
  } catch (error) {
    const hint = error instanceof SimjobError && error.hint ? error.hint : 'Run `simjob login` or set SIMJOB_API_KEY.';
    return fail('api-key', messageOf(error), hint);
  }
  ctx.out.addSecret(key.value);
  const from = key.source === 'env' ? 'SIMJOB_API_KEY' : `credentials of profile "${ctx.config.profile}"`;
  if (!baseUrl || !serviceOk)
    return fail(
      'api-key',
      `Set (${from}), not checked: the service is not reachable.`,
      'Make the service reachable first (see above).',
    );
  const { HttpClient } = await import('../../../core/api/http.js');
  const { Usage } = await import('../../../core/resources/schemas.js');
  const http = new HttpClient({
    baseUrl,
    apiKey: key.value,
    userAgent: userAgent(),
    timeoutMs: PROBE_TIMEOUT_MS,
    debug: ctx.debugLevel,
    log: (line) => ctx.out.err(`${ctx.out.ce.dim(terminalSafe(line))}\n`),
    signal: ctx.signal,
    env: ctx.env,
  });
  try {
    await http.call('GET', '/v1/sim/usage', { schema: Usage, retry: 'never' });
    return pass('api-key', `accepted (${from})`);
  } catch (error) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    if (error instanceof ApiError && error.status === 401) {
      const fix =
        key.source === 'env'
          ? 'Set SIMJOB_API_KEY to a valid key (issue one under Clients & Keys).'
          : `Issue a new key under Clients & Keys, then run \`simjob login${ctx.config.profileSource === 'default' ? '' : ` --profile ${ctx.config.profile}`}\`.`;
      return fail('api-key', `Rejected by the service (${error.code ?? 'HTTP 401'}; from ${from}).`, fix);
    }
    const hint =
      error instanceof SimjobError && error.hint ? error.hint : 'Run again with --debug to see the exchange.';
    return fail('api-key', `Not confirmed: ${messageOf(error)}`, hint);
  }
}

// -- local simc ---------------------------------------------------------------------------------------------------

/**
 * The simc local mode would run, found by the same discovery (src/core/local/simc.ts), and its version line. One check
 * per channel when channels resolve to different binaries; none found is not a failure (only --local needs one).
 */
export async function checkSimc(ctx: Context, remoteSetUp = true): Promise<Check[]> {
  const { findSimc, probeSimc, NO_SIMC_HINT } = await import('../../../core/local/simc.js');
  let configured: string | undefined;
  try {
    configured = ctx.config.stringSetting('channel');
  } catch {
    configured = undefined; // a broken config.json is reported by config-file
  }
  const channels: Channel[] = (CHANNELS as readonly string[]).includes(configured ?? '')
    ? [configured as Channel]
    : [...CHANNELS];
  const found = await Promise.all(
    channels.map(async (channel) => {
      try {
        return { channel, choice: await findSimc({ env: ctx.env, config: ctx.config, channel }), error: undefined };
      } catch (error) {
        return { channel, choice: undefined, error };
      }
    }),
  );
  const distinct = new Map<string, typeof found>();
  for (const f of found) {
    const key = f.choice ? `${f.choice.source}\0${f.choice.path}` : `error\0${messageOf(f.error)}`;
    distinct.set(key, [...(distinct.get(key) ?? []), f]);
  }
  // Nothing at all to run a sim with (no service, no simc for any channel) is a failure; otherwise "none" is fine.
  const noneIsFine = remoteSetUp || found.some((f) => f.choice);
  const named = distinct.size > 1;
  const probes = new Map<string, Awaited<ReturnType<typeof probeSimc>>>();
  const results: Check[] = [];
  for (const group of distinct.values()) {
    const first = group[0]!;
    const name = named ? `simc.${group.map((g) => g.channel).join('+')}` : 'simc';
    if (!first.choice) {
      const error = first.error;
      const none = error instanceof SimjobError && error.message.startsWith('No simc found');
      // With nothing remote set up either, simjob has nothing to run a sim with: that is a failure.
      results.push(
        none && noneIsFine
          ? pass(name, `None found; only --local needs one. ${NO_SIMC_HINT}`)
          : none
            ? fail(name, 'None found, and no service is set up either: nothing can run a sim.', NO_SIMC_HINT)
            : fail(name, messageOf(error), error instanceof SimjobError && error.hint ? error.hint : NO_SIMC_HINT),
      );
      continue;
    }
    const { path, source } = first.choice;
    if (!probes.has(path)) probes.set(path, await probeSimc(path, ctx.env));
    const probe = probes.get(path)!;
    if ('error' in probe) {
      results.push(
        fail(
          name,
          `${path} (from ${source}) does not run as simc: ${probe.error}.`,
          `Check that ${shellWord(path)} is SimulationCraft: run alone, it prints its version line.`,
        ),
      );
    } else {
      results.push(pass(name, `${path} (from ${source}): ${probe.line}`));
    }
  }
  return results;
}

// -- helpers ------------------------------------------------------------------------------------------------------

async function statOrNull(path: string) {
  try {
    return await fs.stat(path);
  } catch {
    return null;
  }
}

async function readJson(path: string): Promise<'missing' | 'unreadable' | 'invalid' | { mode: number; data: unknown }> {
  const info = await statOrNull(path);
  if (!info) return 'missing';
  let text: string;
  try {
    // A regular file of a settings file's size: a FIFO or /dev/zero in its place is unreadable, not a hang.
    text = readRegularFile(path, CAPS.config.bytes).toString('utf8');
  } catch {
    return 'unreadable';
  }
  try {
    const data = JSON.parse(text) as unknown;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return 'invalid';
    return { mode: info.mode & 0o777, data };
  } catch {
    return 'invalid';
  }
}

function profileNames(data: unknown): string {
  const profiles = (data as { profiles?: Record<string, unknown> }).profiles;
  const names = profiles && typeof profiles === 'object' ? Object.keys(profiles) : [];
  return names.length ? names.join(', ') : 'none';
}

function sourceOf(ctx: Context, resolved: Resolved<unknown>, flag: string, env: string): string {
  if (resolved.source === 'flag') return `from ${flag}`;
  if (resolved.source === 'env') return `from ${env}`;
  return `from profile "${ctx.config.profile}"`;
}

function isJsonObject(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return Boolean(value) && typeof value === 'object';
  } catch {
    return false;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
