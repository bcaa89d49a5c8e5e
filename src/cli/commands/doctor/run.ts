import type { Context } from '../../context.js';
import { ExitCode } from '../../../errors.js';
import { VERSION } from '../../../version.js';
import {
  checkApiKey,
  checkBaseUrl,
  checkConfigDir,
  checkCredentialsFile,
  checkService,
  checkSettingsFile,
  checkSimc,
  remoteChecksNotSetUp,
  remoteNotSetUp,
  type Check,
} from './checks.js';
import { terminalSafeLine } from '../../../util/safe.js';

const LABELS: Record<string, string> = {
  'config-dir': 'Config dir',
  'config-file': 'Settings file',
  'credentials-file': 'Credentials file',
  'base-url': 'Base URL',
  service: 'Service',
  'api-key': 'API key',
  simc: 'Local simc',
};

/**
 * `simjob doctor`: every check in order, each with a one-line fix when it fails. Exit 0 when all pass, 1 otherwise
 * (with --json too: an array of {check, ok, detail, fix}).
 */
export async function run(ctx: Context): Promise<number> {
  const dir = ctx.config.dir;
  const checks: Check[] = [await checkConfigDir(dir), await checkSettingsFile(dir), await checkCredentialsFile(dir)];
  const remote = !remoteNotSetUp(ctx);
  if (remote) {
    const base = checkBaseUrl(ctx);
    checks.push(base.check);
    const service = await checkService(ctx, base.url);
    checks.push(service);
    checks.push(await checkApiKey(ctx, base.url, service.ok));
  } else {
    checks.push(...remoteChecksNotSetUp());
  }
  checks.push(...(await checkSimc(ctx, remote)));

  const failed = checks.filter((c) => !c.ok).length;
  if (ctx.out.json) {
    ctx.out.printJson(checks);
  } else {
    printChecks(ctx, checks);
    const made = checks.filter((c) => !c.notSetUp).length;
    const skipped = checks.length - made;
    ctx.out.line(
      failed
        ? `${failed} of ${made} checks failed.`
        : `All ${made} checks passed${skipped ? ` (the ${skipped} remote ones are not set up: local jobs only)` : ''}.`,
    );
  }
  return failed ? ExitCode.ERROR : ExitCode.OK;
}

function printChecks(ctx: Context, checks: Check[]): void {
  const { c } = ctx.out;
  ctx.out.notice(
    `simjob ${VERSION}, Node ${process.version} (${process.platform} ${process.arch}), profile "${ctx.config.profile}"`,
  );
  const labels = checks.map((check) => label(check.check));
  const width = Math.max(...labels.map((l) => l.length));
  checks.forEach((check, i) => {
    const mark = check.notSetUp ? c.dim('–') : check.ok ? c.green('✓') : c.red('✗');
    // A check's detail quotes what it found (a server's answer, simc's version line): escaped before colour.
    ctx.out.line(`${mark} ${labels[i]!.padEnd(width)}  ${terminalSafeLine(check.detail)}`);
    if (check.fix) ctx.out.line(`  ${' '.repeat(width)}  ${c.dim('Fix:')} ${terminalSafeLine(check.fix)}`);
  });
}

function label(id: string): string {
  if (LABELS[id]) return LABELS[id];
  const channel = /^simc\.(.+)$/.exec(id)?.[1];
  return channel ? `Local simc (${channel.replace(/\+/g, ', ')})` : id;
}
