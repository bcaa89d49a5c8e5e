#!/usr/bin/env node
// Make docs/wait.png and docs/wait.txt: `simjob topgear … --wait` of the shipped addon export on a real terminal
// (tmux), against the local test server (test/server), captured with its colours while it waits and when it ends,
// drawn as a PNG.
// Needs tmux and Debian's chromium (apt-get install -y tmux chromium; drawn by playwright-core) and a build.
// Usage: node docs/wait-demo.mjs            (SIMJOB_BIN=/path/to/bin/simjob.js to use another build)
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '..');
const bin = process.env.SIMJOB_BIN ?? join(root, 'bin', 'simjob.js');
const COLS = 104;
const ROWS = 56;
const session = `simjob-demo-${process.pid}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PALETTE = ['#3b4252', '#ef6b73', '#8ccf7e', '#e5c76b', '#67b0e8', '#c47fd5', '#6cd0ca', '#d8dee9'];
const BRIGHT = ['#6b7089', '#ff8089', '#a8e59a', '#f0d98a', '#8cc8f5', '#d9a0e6', '#8fe5df', '#ffffff'];
const FG = '#d8dee9';

// 1. the test server, with a queue and a run long enough to watch
const server = spawn(
  process.execPath,
  [
    join(root, 'scripts', 'tsrun.mjs'),
    join(root, 'test', 'server', 'main.ts'),
    '--queue-ms',
    '5000',
    '--run-ms',
    '12000',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const { url } = JSON.parse(await new Promise((done) => createInterface({ input: server.stdout }).once('line', done)));

// 2. a user's folder: the shipped examples (examples/addon/fury-bags-vault.txt, this expansion's gear), and
// `simjob` on the PATH
const home = mkdtempSync(join(tmpdir(), 'simjob-demo-'));
mkdirSync(join(home, 'bin'));
writeFileSync(join(home, 'bin', 'simjob'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
chmodSync(join(home, 'bin', 'simjob'), 0o755);
symlinkSync(join(root, 'examples'), join(home, 'examples'));
const env = `cd ${home} && export PATH=${home}/bin:$PATH SIMJOB_CONFIG_DIR=${home}/cfg SIMJOB_BASE_URL=${url} SIMJOB_API_KEY=sk_test_good COLORTERM= TERM=screen-256color PS1='$ '`;

// 3. type the command in tmux and capture the pane while it waits and when it ends
const tmux = (...args) => execFileSync('tmux', args).toString();
try {
  tmux('new-session', '-d', '-s', session, '-x', String(COLS), '-y', String(ROWS), 'bash --norc --noprofile');
  tmux('send-keys', '-t', session, `${env} && clear`, 'Enter');
  await sleep(500);
  tmux(
    'send-keys',
    '-t',
    session,
    'simjob topgear examples/addon/fury-bags-vault.txt --slots trinket --channel nightly --wait',
    'Enter',
  );
  await sleep(3000);
  const queued = tmux('capture-pane', '-e', '-p', '-t', session);
  await sleep(9000);
  const waiting = tmux('capture-pane', '-e', '-p', '-t', session);
  for (let i = 0; i < 60 && !tmux('capture-pane', '-p', '-t', session).includes('Download them with'); i++)
    await sleep(500);
  await sleep(300);
  const done = tmux('capture-pane', '-e', '-p', '-t', session);
  const frames = [
    ['While it waits (queued)', queued],
    ['While it waits (running)', waiting],
    ['When it ends', done],
  ];
  writeFileSync(join(root, 'docs', 'wait.txt'), frames.map(([t, f]) => `=== ${t} ===\n${trim(f)}\n`).join('\n'));
  // The waiting frames differ from the final screen only in their last line: the spinner.
  const spinnerLine = (f) => trim(f).split('\n').at(-1);
  const svg = render(
    [
      [frames[0][0], spinnerLine(queued)],
      [frames[1][0], spinnerLine(waiting)],
      [frames[2][0], trim(done)],
    ],
    'simjob topgear --wait of examples/addon/fury-bags-vault.txt against the local test server (test/server): its numbers are synthetic',
  );
  writeFileSync(join(home, 'wait.svg'), svg);
  await drawPng(join(home, 'wait.svg'), join(root, 'docs', 'wait.png'));
  console.log('wrote docs/wait.png and docs/wait.txt');
} finally {
  try {
    tmux('kill-session', '-t', session);
  } catch {
    /* already gone */
  }
  server.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
}

function trim(frame) {
  const rows = frame.replace(/\n+$/, '').split('\n');
  while (rows.length && strip(rows.at(-1)).trim() === '') rows.pop();
  // the shell's last prompt is not part of the picture
  if (rows.length && strip(rows.at(-1)).trim() === '$') rows.pop();
  return rows.join('\n');
}

function strip(s) {
  return s.replace(/\x1b\[[0-9;]*m/g, '');
}

// ---- ANSI (SGR) → SVG, one cell per character so the grid holds whatever glyph a font lacks

function parse(line) {
  const cells = [];
  let style = { fg: FG, bold: false, dim: false };
  const re = /\x1b\[([0-9;]*)m|([^\x1b]+)/g;
  for (const m of line.matchAll(re)) {
    if (m[2] !== undefined) {
      for (const ch of m[2]) cells.push({ ch, ...style });
      continue;
    }
    const codes = (m[1] || '0').split(';').map(Number);
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i];
      if (c === 0) style = { fg: FG, bold: false, dim: false };
      else if (c === 1) style = { ...style, bold: true };
      else if (c === 2) style = { ...style, dim: true };
      else if (c === 22) style = { ...style, bold: false, dim: false };
      else if (c >= 30 && c <= 37) style = { ...style, fg: PALETTE[c - 30] };
      else if (c >= 90 && c <= 97) style = { ...style, fg: BRIGHT[c - 90] };
      else if (c === 39) style = { ...style, fg: FG };
      else if (c === 38 && codes[i + 1] === 5) {
        const n = codes[i + 2];
        style = { ...style, fg: n < 8 ? PALETTE[n] : n < 16 ? BRIGHT[n - 8] : FG };
        i += 2;
      }
    }
  }
  return cells;
}

function esc(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function render(frames, caption) {
  const cw = 8.4;
  const lh = 18;
  const pad = 16;
  const bar = 28;
  const width = Math.ceil(COLS * cw + 2 * pad);
  let y = 0;
  const parts = [];
  for (const [title, text] of frames) {
    const rows = text.split('\n');
    const h = bar + pad + rows.length * lh + pad;
    parts.push(`<g transform="translate(0 ${y})">`);
    parts.push(`<rect x="0" y="0" width="${width}" height="${h}" rx="8" fill="#1f2430"/>`);
    parts.push(
      `<rect x="0" y="0" width="${width}" height="${bar}" rx="8" fill="#2b3140"/><rect x="0" y="${bar - 8}" width="${width}" height="8" fill="#2b3140"/>`,
    );
    ['#ff5f57', '#febc2e', '#28c840'].forEach((c, i) =>
      parts.push(`<circle cx="${18 + i * 18}" cy="${bar / 2}" r="5.5" fill="${c}"/>`),
    );
    parts.push(
      `<text x="${width / 2}" y="${bar / 2 + 4.5}" text-anchor="middle" font-family="DejaVu Sans" font-size="12" fill="#aab2c0">${esc(title)}</text>`,
    );
    rows.forEach((row, r) => {
      const base = bar + pad + (r + 1) * lh - 5;
      let col = 0;
      let run = [];
      const flush = () => {
        if (!run.length) return;
        const s = run[0];
        const xs = run.map((_, i) => (pad + (col - run.length + i) * cw).toFixed(1)).join(' ');
        const text = run.map((c) => c.ch).join('');
        if (text.trim()) {
          parts.push(
            `<text xml:space="preserve" x="${xs}" y="${base}" fill="${s.fg}"${s.bold ? ' font-weight="bold"' : ''}${s.dim ? ' opacity="0.55"' : ''}>${esc(text)}</text>`,
          );
        }
        run = [];
      };
      for (const cell of parse(row)) {
        if (run.length && (run[0].fg !== cell.fg || run[0].bold !== cell.bold || run[0].dim !== cell.dim)) flush();
        run.push(cell);
        col++;
      }
      flush();
    });
    parts.push('</g>');
    y += h + 14;
  }
  const height = y + 22;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans Mono" font-size="14">
<rect width="100%" height="100%" fill="#ffffff"/>
${parts.join('\n')}
<text x="${width / 2}" y="${height - 8}" text-anchor="middle" font-family="DejaVu Sans" font-size="12" fill="#555">${esc(caption)}</text>
</svg>`;
}

/** The SVG at 1.5× as a PNG, drawn by Debian's chromium (the browser the report tests and report-demo.mjs use). */
async function drawPng(svgFile, pngFile) {
  const profile = mkdtempSync(join(tmpdir(), 'simjob-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    deviceScaleFactor: 1.5,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(svgFile).href);
    await page.locator('svg').screenshot({ path: pngFile, omitBackground: false });
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
