/**
 * Issue 41, "Pastes" and input files, through the built CLI: what players paste and what disks hand over. A hoard
 * of 5,000 bag trinkets is refused before any pair is built; a paste cut short is refused naming its line, one
 * that reads whole without a checksum runs with a warning; UTF-16 exports read as UTF-8 ones do; a FIFO, a folder
 * or /dev/zero is one line and exit 2 for every command that reads a file; statweights keeps its profileset names
 * its own and bounds --amount; a catalog URL whose TLS fails is an error, or a warning that the copy fetched before
 * is used; a catalog name with a line feed never fakes a second line.
 */
import { execa } from 'execa';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogCacheFile } from '../../src/core/catalog/fetch.js';
import { BIN, isolatedDirs, simjob } from '../helpers/cli.js';
import { ADDON_FIXTURES_DIR } from '../helpers/shared.js';
import { noteSkipped } from '../helpers/skip-note.js';
import { tempDir } from '../helpers/temp.js';
import { tinyCatalog } from '../helpers/tiny-catalog.js';

const FURY_FILE = resolve(ADDON_FIXTURES_DIR, 'fury-bags-vault.txt');
const FURY = readFileSync(FURY_FILE, 'utf8');
const DK = readFileSync(resolve(ADDON_FIXTURES_DIR, 'real', 'deathknight-unholy-1.txt'), 'utf8');
const dir = tempDir('simjob-paste-');
const env = { ...isolatedDirs(), SIMJOB_CACHE_DIR: join(dir, 'cache') };
const write = (name: string, content: string | Buffer) => {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
};
/** stderr's lines, without the final newline. */
const errLines = (stderr: string) => stderr.replace(/\n$/, '').split('\n');

describe('a hoard of bag trinkets', () => {
  it('5,000 trinkets are counted, not paired: refused with the count and a --slots that fits', async () => {
    const at = FURY.indexOf('### Gear from Bags\n') + '### Gear from Bags\n'.length;
    const hoard = Array.from({ length: 5000 }, (_, i) => `#\n# trinket1=,id=${300000 + i},bonus_id=12806/13577\n`);
    const file = write('hoard.txt', FURY.slice(0, at) + hoard.join('') + FURY.slice(at));
    const r = await simjob(['topgear', file, '-o', join(dir, 'hoard.simc')], { env });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('trinket 12,522,509');
    expect(errLines(r.stderr).at(-1)).toBe(
      'Error: 1,302,020,744 combinations is more than --max-combos 1,000: --slots head,neck,waist,finger,weapon ' +
        'would make 104 (or raise --max-combos).',
    );
    expect(existsSync(join(dir, 'hoard.simc'))).toBe(false);
    // --max-combos raised past the pairs: for the service, refused from the count before the profile is written.
    const raised = await simjob(['topgear', file, '--slots', 'trinket', '--max-combos', '100000000', '--dry-run'], {
      env,
    });
    expect(raised.exitCode).toBe(2);
    expect(errLines(raised.stderr).at(-1)).toBe(
      "Error: The profile for 12,522,509 combinations is at least 429.9 MB, over the service's 2 MB: fewer --slots " +
        'would (or run it with --local).',
    );
  });
});

describe('pastes cut short, or whole without a checksum', () => {
  it('the Death Knight export cut at 90 % is refused naming the line, not run with 7 weapons instead of 10', async () => {
    const file = write('dk-90.txt', DK.slice(0, Math.floor(DK.length * 0.9)));
    const r = await simjob(['topgear', file, '--slots', 'weapon', '-o', join(dir, 'dk-90.simc')], { env });
    expect(r.exitCode).toBe(2);
    expect(errLines(r.stderr)).toEqual([
      `Error: Export ${file}: Line 179: the paste ends in "# main_h", which is not a whole line of the export, and ` +
        'has no "# Checksum:" line: it was cut short. Copy the whole text from the /simc window (Ctrl+A, Ctrl+C), ' +
        'down to its "# Checksum:" line.',
    ]);
  });

  it('cut inside a name comment, or before the "=" of a bag item: refused naming the line', async () => {
    const head = (n: number) => `${DK.split('\n').slice(0, n).join('\n')}\n`;
    for (const [cut, line] of [
      [`${head(135)}# Snapper Steppers (22`, 'Line 136: the paste ends in "# Snapper Steppers (22"'],
      [`${head(184)}# main_`, 'Line 185: the paste ends in "# main_"'],
    ] as const) {
      const r = await simjob(['topgear', '-', '-o', join(dir, 'cut.simc')], { env, input: cut });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^Error: The export on stdin: ${line.replace(/[()]/g, '\\$&')}, which`));
    }
  });

  it('an export trimmed of its checksum, ending on a whole item line, runs with one warning', async () => {
    const trimmed = `${DK.split('\n').slice(0, 185).join('\n')}\n`;
    const out = join(dir, 'trimmed.simc');
    const r = await simjob(['topgear', '-', '--slots', 'weapon', '-o', out], { env, input: trimmed });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(errLines(r.stderr)[0]).toBe(
      'Warning: The export has no "# Checksum:" line: it reads whole, but nothing proves that it was not cut ' +
        'short; check that every item you own is in it.',
    );
    expect(r.stderr).toContain('Gubulgi (unholy deathknight): 10 combinations');
    expect(readFileSync(out, 'utf8')).toContain('Underbrush-Clearing Cleaver (237) in main_hand');
    // The job says so, and so its answer does wherever it is shown (metadata export=no-checksum).
    const dry = await simjob(['topgear', '-', '--slots', 'weapon', '--dry-run', '--channel', 'nightly'], {
      env,
      input: trimmed,
    });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('"export": "no-checksum"');
    const catalog = write('dk-catalog.json', tinyCatalog([{ id: 249346, name: 'Swarmgland', slot: 'trinket' }]));
    const drops = await simjob(['droptimizer', '-', '--catalog', catalog, '--dry-run', '--channel', 'nightly'], {
      env,
      input: trimmed,
    });
    expect(drops.exitCode, drops.stderr).toBe(0);
    expect(drops.stdout).toContain('"export": "no-checksum"');
  });

  it('a bag line with a stray CR inside it is an error naming the line (not 392 combinations for 744)', async () => {
    const file = write('cr.txt', FURY.replace('# Vaelgor', '#\r# Vaelgor'));
    const r = await simjob(['topgear', file, '--dry-run'], { env });
    expect(r.exitCode).toBe(2);
    expect(errLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('Line 58: "#\\x0d# Vaelgor\'s Final Stare (282)" holds a carriage return (CR)');
  });

  it('an item option that is not one (,html=/x) is refused, never carried into every profileset', async () => {
    const file = write(
      'html.txt',
      FURY.replace('# trinket1=,id=249346,bonus_id=12806/13577', '# trinket1=,id=249346,bonus_id=12806/13577,html=/x'),
    );
    const r = await simjob(['topgear', file, '-o', join(dir, 'html.simc')], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^Error: Export .*html\.txt: Line 59: simc cannot read this trinket1 item: "html=" is not/,
    );
    expect(existsSync(join(dir, 'html.simc'))).toBe(false);
  });
});

describe('UTF-16 exports (Windows PowerShell 5.1 `>` and Out-File) read as UTF-8 ones do', () => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(FURY, 'utf16le')]);
  const be = Buffer.from(le);
  for (let i = 0; i < be.length; i += 2) [be[i], be[i + 1]] = [be[i + 1]!, be[i]!];
  const bom8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(FURY)]);

  it('topgear, droptimizer and statweights read each alike', async () => {
    const expected = await simjob(['topgear', FURY_FILE, '-o', join(dir, 'utf8.simc')], { env });
    expect(expected.exitCode).toBe(0);
    for (const [name, bytes] of [
      ['le.txt', le],
      ['be.txt', be],
      ['bom8.txt', bom8],
    ] as const) {
      const file = write(name, bytes);
      const r = await simjob(['topgear', file, '-o', join(dir, `${name}.simc`)], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      // The same counts and the same profilesets: only the file names differ.
      expect(errLines(r.stderr).slice(0, 2)).toEqual(errLines(expected.stderr).slice(0, 2));
      const sets = (f: string) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('profileset.'));
      expect(sets(join(dir, `${name}.simc`))).toEqual(sets(join(dir, 'utf8.simc')));
      const weights = await simjob(['statweights', file, '-o', join(dir, `${name}.sw.simc`)], { env });
      expect(weights.exitCode, weights.stderr).toBe(0);
    }
    const catalog = write(
      'utf16-catalog.json',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tiny, 'utf16le')]),
    );
    const drops = await simjob(['droptimizer', write('le2.txt', le), '--catalog', catalog, '-o', join(dir, 'd.simc')], {
      env,
    });
    expect(drops.exitCode, drops.stderr).toBe(0);
  });
});

const tiny = tinyCatalog([{ id: 249346, name: 'Ceaseless Swarmgland', slot: 'trinket' }]);

describe('inputs are regular files of a sane size', () => {
  const fifo = join(dir, 'fifo');
  const made = spawnSync('mkfifo', [fifo]).status === 0;
  const folder = join(dir, 'folder');
  mkdirSync(folder);

  it('/dev/zero, a FIFO and a folder are one line and exit 2 at once, for every command that reads a file', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['topgear', '/dev/zero'], /^Error: Export \/dev\/zero is a device, not a file\./],
      [['submit', '/dev/zero', '--dry-run'], /^Error: Profile \/dev\/zero is a device, not a file\./],
      [['droptimizer', FURY_FILE, '--catalog', '/dev/zero'], /^Error: Catalog \/dev\/zero is a device, not a file\./],
      [['statweights', '/dev/zero'], /^Error: Profile \/dev\/zero is a device, not a file\./],
      [['compare', '/dev/zero', './x.json'], /^Error: Saved result \/dev\/zero is a device, not a file\./],
      [['topgear', folder], /^Error: Export .*folder is a folder, not a file\./],
    ];
    if (made) {
      cases.push([['topgear', fifo], /^Error: Export .*fifo is a named pipe \(FIFO\), not a file\./]);
      cases.push([['submit', fifo, '--dry-run'], /^Error: Profile .*fifo is a named pipe \(FIFO\), not a file\./]);
    } else noteSkipped('the FIFO cases of paste-faults.test.ts', 'mkfifo is not on this machine');
    for (const [args, message] of cases) {
      const r = await simjob(args, { env, timeoutMs: 20_000 });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(errLines(r.stderr), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
  });

  it('`topgear -` fed /dev/zero stops reading at its cap', async () => {
    const r = await execa(process.execPath, [BIN, 'topgear', '-'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...env },
      extendEnv: false,
      inputFile: '/dev/zero',
      reject: false,
      timeout: 30_000,
    });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toBe('Error: The export on stdin is over 8 MB: a /simc export is a few tens of kB.');
  });
  it("simjob's own settings file, a secret file and a key on stdin are bounded the same way", async () => {
    const config = join(dir, 'zero-config');
    mkdirSync(config);
    symlinkSync('/dev/zero', join(config, 'config.json'));
    const list = await simjob(['config', 'list'], { env: { ...env, SIMJOB_CONFIG_DIR: config } });
    expect(list.exitCode).toBe(2);
    expect(errLines(list.stderr)).toEqual([
      `Error: Cannot read ${join(config, 'config.json')}: it is a device, not a file. Check the file and its permissions.`,
    ]);
    const secret = await simjob(['webhook', 'verify', '--secret-file', folder, '--signature', 'x'], { env });
    expect(secret.exitCode).toBe(2);
    expect(secret.stderr).toMatch(/^Error: Cannot read the secret file .*folder: it is a folder, not a file\./);
    const login = await execa(process.execPath, [BIN, 'login'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...env },
      extendEnv: false,
      inputFile: '/dev/zero',
      reject: false,
      timeout: 30_000,
    });
    expect(login.exitCode).toBe(2);
    expect(String(login.stderr)).toBe('Error: stdin holds more than 64 kB: a secret is one line.');
  });
});

describe('statweights owns its profileset names', () => {
  const base = 'warrior="Gul"\nspec=fury\nlevel=90\nhead=,id=250458,bonus_id=6652\n';

  it('a profile that includes another file (whose profileset."Crit" would merge into its own) is refused', async () => {
    write('extra.simc', 'profileset."Crit"+=crit_rating=5000\n');
    for (const include of ['input=extra.simc', 'extra.simc']) {
      const file = write('inc.simc', `${base}${include}\n`);
      const r = await simjob(['statweights', file, '-o', join(dir, 'sw.simc')], { env, cwd: dir });
      expect(r.exitCode).toBe(2);
      expect(errLines(r.stderr)).toEqual([
        `Error: ${file} includes another file (${include}, line 5): statweights cannot see whether it defines ` +
          "profilesets, which would merge into its own. Paste that file's lines into the profile instead.",
      ]);
    }
    // A variable that makes a profileset name is seen through, as simc expands it.
    const variable = write('var.simc', `${base}$(x)=Crit\nprofileset.$(x)+=crit_rating=5000\n`);
    const r = await simjob(['statweights', variable, '-o', join(dir, 'sw.simc')], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('already has profilesets');
  });

  it('--amount has an upper bound, and the error says why', async () => {
    const file = write('base.simc', base);
    const r = await simjob(['statweights', file, '--amount', '2147483648', '-o', join(dir, 'sw.simc')], { env });
    expect(r.exitCode).toBe(2);
    expect(errLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^Error: --amount 2,147,483,648 is more than 10,000 points: a weight is what one point/);
    const fine = await simjob(['statweights', file, '--amount', '10000', '-o', join(dir, 'sw.simc')], { env });
    expect(fine.exitCode, fine.stderr).toBe(0);
  });
});

describe('catalogs', () => {
  it('a name with a line feed is refused in one line, pointing to a doc that exists', async () => {
    const evil = write(
      'evil.json',
      tinyCatalog([{ id: 249346, name: 'Swarmgland\nError: fake second line', slot: 'trinket' }]),
    );
    const r = await simjob(['droptimizer', FURY_FILE, '--catalog', evil, '-o', join(dir, 'evil.simc')], { env });
    expect(r.exitCode).toBe(2);
    expect(errLines(r.stderr)).toEqual([
      `Error: Catalog ${evil}: instances.0.encounters.0.items.0.name holds a control character (U+000A); names ` +
        'must be plain text. See docs/droptimizer.md, "Catalog format".',
    ]);
    expect(existsSync(resolve(import.meta.dirname, '..', '..', 'docs', 'droptimizer.md'))).toBe(true);
    expect(readFileSync(resolve(import.meta.dirname, '..', '..', 'docs', 'droptimizer.md'), 'utf8')).toContain(
      '### Catalog format',
    );
  });

  describe('a catalog URL whose TLS fails (a self-signed certificate)', () => {
    let server: Server | undefined;
    const openssl = spawnSync('openssl', ['version']).status === 0;
    if (!openssl) noteSkipped('the TLS catalog tests of paste-faults.test.ts', 'openssl is not on this machine');
    afterAll(() => server?.close());

    it.runIf(openssl)('is an error without a cached copy, and a warning (why under --debug) with one', async () => {
      const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(tiny);
      });
      await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
      const port = (server.address() as { port: number }).port;
      const url = `https://127.0.0.1:${port}/s1.json`;
      const args = ['droptimizer', FURY_FILE, '--catalog', url, '-o', join(dir, 'tls.simc')];

      const none = await simjob(args, { env });
      expect(none.exitCode).toBe(1);
      expect(errLines(none.stderr)).toHaveLength(1);
      expect(none.stderr).toMatch(
        new RegExp(
          `^Error: Cannot fetch the catalog ${url}: its TLS failed \\(.*certificate.*\\)\\. The server is not`,
        ),
      );

      const cache = catalogCacheFile(url, env);
      mkdirSync(join(cache, '..'), { recursive: true });
      writeFileSync(cache, JSON.stringify({ etag: '"v1"', text: tiny }));
      const cached = await simjob(args, { env });
      expect(cached.exitCode, cached.stderr).toBe(0);
      expect(errLines(cached.stderr)[0]).toBe(
        `Warning: Cannot fetch the catalog ${url} now; using the copy fetched before. --debug shows why.`,
      );
      const debug = await simjob([...args, '--debug'], { env });
      expect(debug.exitCode).toBe(0);
      expect(debug.stderr).toContain(`Warning: Cannot fetch the catalog ${url} now; using the copy fetched before.\n`);
      expect(debug.stderr).toMatch(new RegExp(`catalog ${url}: .*certificate`));
    });
  });
});
