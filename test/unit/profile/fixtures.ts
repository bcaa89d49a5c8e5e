import { readFileSync } from 'node:fs';
import { FIXTURES_DIR } from '../../helpers/shared.js';

/** Real simc profiles shared by the team (provenance and licences: test/fixtures/simc/SOURCES.md). */
export const PROFILE_DIR = `${FIXTURES_DIR}/profiles`;

export function readProfile(
  name: 'MID1_Warrior_Fury' | 'MID1_Mage_Frost' | 'trinkets_dragonflight_agi' | 'character',
): string {
  return readFileSync(`${PROFILE_DIR}/${name}.simc`, 'utf8');
}

/** A tiny single-actor base profile. */
export const BASE = ['warrior="Base"', 'spec=fury', 'level=90', 'talents=ABC', ''].join('\n');

/** `n` profilesets named s1..sn, each with a talents line and an extra `+=` line. */
export function withProfilesets(n: number, base = BASE): string {
  const lines: string[] = [];
  for (let i = 1; i <= n; i += 1) {
    lines.push(`profileset."s${i}"=talents=T${i}`, `profileset."s${i}"+=trinket1=,id=${1000 + i}`);
  }
  return `${base}${lines.join('\n')}\n`;
}
