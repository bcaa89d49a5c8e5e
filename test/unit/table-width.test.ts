/**
 * Terminal tables measure text in terminal columns: a CJK character or an emoji takes two, so names in Chinese,
 * Japanese or Korean, or with emoji, still fit the terminal and line up (the width used to be counted in code points).
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/cli/output/io.js';
import { printTable, truncate, wrap } from '../../src/cli/output/table.js';
import { memoryStream } from '../helpers/streams.js';

const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

function table(rows: Array<{ name: string; dps: string }>, width: number): string[] {
  const stdout = memoryStream(true, width);
  const out = new Output({ stdout, stderr: memoryStream(true), env: {}, json: false, noColor: true, quiet: false });
  printTable(out, rows, [
    { header: 'Name', value: (r) => r.name, shrinkable: true },
    { header: 'DPS', value: (r) => r.dps, align: 'right' },
  ]);
  return plain(stdout.text()).trimEnd().split('\n');
}

describe('terminal tables with wide characters', () => {
  const rows = [
    { name: '雷霆之怒，逐风者的祝福之剑 (289) in main_hand', dps: '51,234.5' },
    { name: '🛡️ Shield of the Dragon 🐉 (285) in off_hand', dps: '50,111.0' },
    { name: '무기 교체: 용의 검 (282)', dps: '49,999.9' },
    { name: 'Plain (280)', dps: '48,000.0' },
  ];

  it('fit the terminal in columns, not code points, and keep every character', () => {
    const lines = table(rows, 40);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(40);
    const text = lines.join('');
    for (const ch of ['雷', '剑', '🐉', '용', '검', 'Plain']) expect(text).toContain(ch);
  });

  it('line up: each figure ends in the same column', () => {
    const lines = table(rows, 80);
    const figures = lines.filter((line) => /\d\.\d$/.test(line));
    expect(figures).toHaveLength(4);
    expect(new Set(figures.map((line) => stringWidth(line))).size).toBe(1);
  });

  it('wrap and truncate by columns', () => {
    expect(wrap('雷霆之怒雷霆之怒', 8).map((l) => stringWidth(l))).toEqual([8, 8]);
    expect(stringWidth(truncate('雷霆之怒雷霆之怒', 9))).toBeLessThanOrEqual(9);
    expect(truncate('雷霆之怒雷霆之怒', 9).endsWith('…')).toBe(true);
    expect(wrap('🐉🐉🐉', 4)).toEqual(['🐉🐉', '🐉']);
  });
});
