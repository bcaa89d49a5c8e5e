import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyScenario, expandScenarios } from '../../src/cli/submitting/scenarios.js';
import { junitClassName, junitXml } from '../../src/cli/output/reports/junit.js';
import { cell, markdownTable } from '../../src/cli/output/reports/markdown.js';
import { validateJunit } from '../helpers/junit.js';

const dir = mkdtempSync(join(tmpdir(), 'simjob-junit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('JUnit XML', () => {
  it('stays valid against the schema whatever the names hold: quotes, markup, control characters, emoji, lone surrogates', async () => {
    const hostile = 'a "b" <c> & \'d\'\u0001\u001b[31m\n\t😀\ud800 ]]>';
    const xml = junitXml('simjob submit', [
      { name: hostile, classname: `simjob.submit.${hostile}`, timeSeconds: 1.23456, output: hostile },
      { name: 'failed', classname: 'x', failure: { type: 'simc_error', message: hostile, detail: hostile } },
      { name: 'error', classname: 'x', error: { type: 'timeout', message: 'still running' } },
      { name: 'skipped', classname: 'x', skipped: hostile },
    ]);
    const path = join(dir, 'hostile.xml');
    writeFileSync(path, xml);
    const report = await validateJunit(path);
    expect(report).toMatchObject({ tests: 4, failures: 1, errors: 1, skipped: 1 });
    expect(report.cases[0]).toContain('a "b" <c> & \'d\'\\u0001\\u001b[31m');
    expect(xml).toContain('😀');
    expect(xml).toMatch(/<testsuites name="simjob" tests="4" failures="1" errors="1" skipped="1" time="1.235">/);
  });

  it('the validator is real: a test case without a name, or a count that is not a number, is refused', async () => {
    const bad = join(dir, 'bad.xml');
    writeFileSync(
      bad,
      '<?xml version="1.0"?>\n<testsuites><testsuite name="s" tests="one"><testcase classname="x"/></testsuite></testsuites>\n',
    );
    await expect(validateJunit(bad)).rejects.toThrow(
      /is not valid JUnit XML:[\s\S]*attribute 'tests'[\s\S]*attribute 'name' is required/,
    );
  });
});

describe('Markdown', () => {
  it('a cell cannot break the table or inject markup', () => {
    expect(cell('a|b\n<img src=x>`c`')).toBe('a\\|b &lt;img src=x&gt;\\`c\\`');
    expect(markdownTable(['A', 'B'], [['1', '2']], [1])).toBe('| A | B |\n| --- | ---: |\n| 1 | 2 |');
  });
});

describe('scenarios', () => {
  it('the product of every --scenario and preset, labelled in the order given', () => {
    const s = expandScenarios(['desired_targets=1,5', 'max_time=300'], ['dungeon']);
    expect(s.map((x) => x.label)).toEqual([
      'DungeonSlice desired_targets=1 max_time=300',
      'DungeonSlice desired_targets=5 max_time=300',
      'DungeonRoute desired_targets=1 max_time=300',
      'DungeonRoute desired_targets=5 max_time=300',
    ]);
    expect(applyScenario('warrior="A"', s[0]!)).toBe(
      'warrior="A"\n\n# simjob scenario: DungeonSlice desired_targets=1 max_time=300\nfight_style=DungeonSlice\ndesired_targets=1\nmax_time=300\n',
    );
    expect(expandScenarios([], [])).toEqual([]);
    expect(() => expandScenarios(['fight_style=Patchwerk', 'fight_style=DungeonSlice'], [])).toThrow(
      '--scenario fight_style is given twice.',
    );
    expect(() => expandScenarios(['fight_style=patchwerk,Patchwerk'], [])).toThrow(
      '--scenario fight_style: Patchwerk is given twice.',
    );
    expect(() => expandScenarios(['desired_targets=1,2,3,4,5,6,7,8', 'max_time=1,2,3,4,5,6,7'], [])).toThrow(
      'more than 50 combinations',
    );
    // Counted before they are crossed: 40 values by 200,000 is refused without building 8 million scenarios.
    const many = Array.from({ length: 200_000 }, (_, i) => i + 1).join(',');
    const forty = Array.from({ length: 40 }, (_, i) => i + 1).join(',');
    expect(() => expandScenarios([`desired_targets=${forty}`, `max_time=${many}`], [])).toThrow(
      'more than 50 combinations',
    );
  });
});

describe('JUnit class names', () => {
  it('the profile is the class, without folder or extension, so CI readers see the package simjob.<command>', () => {
    expect(junitClassName('compare', 'fury.simc')).toBe('simjob.compare.fury');
    expect(junitClassName('submit', 'profiles/MID1_Warrior_Fury.simc')).toBe('simjob.submit.MID1_Warrior_Fury');
    expect(junitClassName('submit', 'runs\\tier.v2.simc')).toBe('simjob.submit.tier_v2');
    expect(junitClassName('submit', '-')).toBe('simjob.submit.-');
  });
});
