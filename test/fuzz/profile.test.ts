/**
 * Property tests of the profile reader: the tokenizer and the analysis never throw, on any text; the multistage
 * decision, the stage plan and the stage rewrite hold on any profile the analysis accepted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeProfile, multistageEligibility, planStages, rewriteForStage } from '../../src/domain/profile/index.js';
import { expandTemplates, splitOption, tokenize } from '../../src/domain/profile/tokenize.js';
import { BASE, readProfile, withProfilesets } from '../unit/profile/fixtures.js';
import { nastyText, params } from './fuzz.js';

/** Lines that look like simc input: options, profilesets, copies, templates, includes, comments, quotes. */
const simcLine = fc.oneof(
  nastyText(80),
  fc.constantFrom(
    'warrior="Fury"',
    'mage=Frost',
    'spec=fury',
    'iterations=1000',
    'target_error=0.05',
    'threads=4',
    'json2=out.json',
    'html=report.html',
    'copy="Alt",Fury',
    'copy=Alt',
    'set=1',
    'enemy=Boss',
    'armory=us,realm,name',
    'guild=us,r,g',
    'input=other.simc',
    'other.simc',
    '$(name)=value',
    'x=$(name)',
    '$($(a))',
    '$(',
    'profileset."a b"=talents=1',
    'profileset.x+=trinket1=,id=1',
    'profileset.=x',
    'profileset."."=x',
    'single_actor_batch=1',
    '# comment',
    '',
    'actions+=/spell,if=buff.x.up',
    'trinket1=,id=1,bonus_id=2/3',
    '"quoted value with spaces"',
    'a="b',
    'report_details=0',
    'profileset_main_actor_index=3',
    'max_time=-1',
    'iterations=1e9',
    'target_error=-1',
    'iterations=nan',
  ),
  fc
    .tuple(
      fc.constantFrom('profileset.', 'copy=', 'iterations=', 'target_error=', '$(', 'input=', 'warrior=', ''),
      nastyText(30),
    )
    .map(([a, b]) => `${a}${b}`),
);
const profileText = fc
  .array(simcLine, { maxLength: 40 })
  .chain((lines) => fc.constantFrom('\n', '\r\n', '\r', ' ', '\t').map((sep) => lines.join(sep)));

/** A real profile with lines dropped, duplicated and inserted. */
function mutatedProfile(base: string): fc.Arbitrary<string> {
  const lines = base.split('\n');
  return fc
    .array(fc.tuple(fc.nat(lines.length), fc.oneof(fc.constant(null), simcLine)), { maxLength: 8 })
    .map((edits) => {
      const copy = [...lines];
      for (const [at, line] of edits) {
        if (line === null) copy.splice(at % Math.max(1, copy.length), 1);
        else copy.splice(at % (copy.length + 1), 0, line);
      }
      return copy.join('\n');
    });
}

function analyseEverything(text: string): void {
  const tokens = tokenize(text);
  expect(Array.isArray(tokens.lines)).toBe(true);
  const analysis = analyzeProfile(text);
  for (const requested of [true, false]) {
    const eligibility = multistageEligibility(analysis, { requested });
    expect(typeof eligibility.enabled).toBe('boolean');
  }
  const plan = planStages(analysis);
  expect(plan.stages.length).toBeGreaterThan(0);
  for (const stage of plan.stages) {
    expect(Number.isFinite(stage.targetError) && stage.targetError > 0).toBe(true);
    expect(Number.isInteger(stage.iterations) && stage.iterations > 0).toBe(true);
    const keep = new Set(analysis.profilesets.slice(0, 3).map((p) => p.name));
    const rewritten = rewriteForStage(text, {
      keepProfilesets: keep,
      targetError: stage.targetError,
      iterations: stage.iterations,
      deferFinalOnly: stage.deferFinalOnly,
    });
    expect(typeof rewritten).toBe('string');
  }
}

describe('profile tokenizer and analysis', () => {
  it('never throw on simc-like text', () => {
    fc.assert(fc.property(profileText, analyseEverything), params());
  });

  it('never throw on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 2000, unit: 'binary' }), analyseEverything), params());
  });

  it('template expansion and option splitting never throw', () => {
    fc.assert(
      fc.property(
        nastyText(200),
        fc.dictionary(fc.string({ maxLength: 8 }), nastyText(20), { maxKeys: 5 }),
        (text, vars) => {
          const expansion = expandTemplates(text, new Map(Object.entries(vars)));
          expect(typeof expansion.text).toBe('string');
          splitOption(text);
        },
      ),
      params(),
    );
  });

  it('mutated profiles with profilesets', () => {
    fc.assert(fc.property(mutatedProfile(withProfilesets(6, BASE)), analyseEverything), params());
  });

  it('mutated real profiles', () => {
    const bases = (['MID1_Warrior_Fury', 'MID1_Mage_Frost', 'trinkets_dragonflight_agi', 'character'] as const).map(
      readProfile,
    );
    fc.assert(fc.property(fc.constantFrom(...bases).chain(mutatedProfile), analyseEverything), {
      ...params(),
      numRuns: Math.max(20, Math.floor(params().numRuns! / 4)),
    });
  });
});
