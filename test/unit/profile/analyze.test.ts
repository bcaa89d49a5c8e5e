import { describe, expect, it } from 'vitest';
import { analyzeProfile } from '../../../src/domain/profile/analyze.js';
import { BASE, readProfile } from './fixtures.js';

const codes = (src: string): string[] => analyzeProfile(src).diagnostics.map((d) => d.code);

describe('analyzeProfile on the real fixture profiles', () => {
  it('MID1_Warrior_Fury: one warrior, no sim options, comments are not directives', () => {
    const a = analyzeProfile(readProfile('MID1_Warrior_Fury'));
    expect(a.lineCount).toBe(177);
    expect(a.actors).toHaveLength(1);
    expect(a.actors[0]).toMatchObject({
      kind: 'player',
      class: 'warrior',
      name: 'MID1_Warrior_Fury',
      line: 1,
      index: 0,
      isPlayer: true,
    });
    expect(a.playerCount).toBe(1);
    expect(a.mainActor?.name).toBe('MID1_Warrior_Fury');
    expect(a.simOptionOccurrences).toEqual([]);
    // "# set_bonus=..." at the end is a comment, not a set= block.
    expect(a.setBlocks).toEqual([]);
    expect(a.profilesets).toEqual([]);
    expect(a.includes).toEqual([]);
    expect(a.disallowed).toEqual([]);
    expect(a.precisionWarnings).toEqual([]);
    expect(a.diagnostics).toEqual([]);
    expect(a.variantCount).toBe(0);
  });

  it('MID1_Mage_Frost: the actor name differs from the file name', () => {
    const a = analyzeProfile(readProfile('MID1_Mage_Frost'));
    expect(a.lineCount).toBe(150);
    expect(a.actors.map((x) => [x.class, x.name, x.line])).toEqual([['mage', 'MID1_Mage_Frost_Spellslinger', 1]]);
    expect(a.diagnostics).toEqual([]);
  });

  it('trinkets_dragonflight_agi: 37 chained copies with quoted names, no base actor', () => {
    const a = analyzeProfile(readProfile('trinkets_dragonflight_agi'));
    const copies = a.actors.filter((x) => x.kind === 'copy');
    expect(copies).toHaveLength(37);
    expect(a.actors).toHaveLength(37);
    expect(a.playerCount).toBe(37);
    expect(a.variantCount).toBe(37);
    expect(copies[0]).toMatchObject({
      name: 'Eye of Skovald',
      line: 7,
      class: null,
      copySource: { name: null, explicit: false, line: null },
    });
    // each copy copies the currently active actor, i.e. the previous copy
    expect(copies[1]).toMatchObject({
      name: 'Horn of Valor',
      line: 10,
      copySource: { name: 'Eye of Skovald', explicit: false, line: 7 },
    });
    const names = copies.map((c) => c.name);
    expect(names).toContain("Granyth's Enduring Scale");
    expect(names).toContain('Darkmoon Deck Box: Inferno');
    expect(names).toContain("Algeth'ar Puzzle Box");
    expect(names).toContain("Storm-Eater's Boon");
    expect(copies.at(-1)).toMatchObject({ name: 'Alacritous Alchemist Stone', line: 115 });
    // alone it fails in simc, and the duplicate name is renamed with a warning
    expect(a.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'copy_without_source', line: 7 }),
      expect.objectContaining({ severity: 'warning', code: 'duplicate_actor_name', line: 115 }),
    ]);
    expect(a.profilesets).toEqual([]);
  });

  it('character.simc: sim options before and after the quoted actor, input= includes', () => {
    const a = analyzeProfile(readProfile('character'));
    expect(a.lineCount).toBe(42);
    expect(a.actors).toHaveLength(1);
    expect(a.actors[0]).toMatchObject({ kind: 'player', class: 'demonhunter', name: 'Base', line: 11 });
    const opts = Object.fromEntries(Object.values(a.simOptions).map((o) => [o.key, [o.value, o.line]]));
    expect(opts).toEqual({
      target_error: ['0.1', 2],
      iterations: ['5000', 3],
      report_details: ['1', 4],
      single_actor_batch: ['1', 5],
      desired_targets: ['1', 23],
      max_time: ['300', 24],
      optimal_raid: ['1', 28],
    });
    expect(a.simOptions.target_error?.numeric).toBe(0.1);
    expect(a.simOptions.iterations?.numeric).toBe(5000);
    // the commented-out "# input=/Users/..." lines are not includes; "# output=log.txt" is not blocked
    expect(a.includes.map((i) => [i.kind, i.file, i.line, i.isPath])).toEqual([
      ['input', 'gear.simc', 39, false],
      ['input', 'actions.simc', 40, false],
    ]);
    expect(a.disallowed).toEqual([]);
    expect(a.precisionWarnings).toEqual([]);
    expect(a.diagnostics).toEqual([]);
  });
});

describe('analyzeProfile: actors', () => {
  it('copy= with an explicit source inherits its class; enemies and pets are not players', () => {
    const a = analyzeProfile(['mage="M"', 'warrior="W"', 'copy="M2",M', 'enemy="Boss"', 'pet=felhunter'].join('\n'));
    expect(a.actors.map((x) => [x.index, x.kind, x.class, x.name, x.isPlayer])).toEqual([
      [0, 'player', 'mage', 'M', true],
      [1, 'player', 'warrior', 'W', true],
      [2, 'copy', 'mage', 'M2', true],
      [3, 'enemy', null, 'Boss', false],
      [4, 'pet', null, 'felhunter', false],
    ]);
    expect(a.actors[2]?.copySource).toEqual({ name: 'M', explicit: true, line: 1 });
    expect(a.playerCount).toBe(3);
  });

  it('counts armory names as players and records armory lines', () => {
    const a = analyzeProfile('armory=us,illidan,Foo,Bar|inactive\narmory=Baz,region=eu,server=draenor,spec=active\n');
    expect(a.armory.map((x) => [x.line, x.names, x.region, x.server])).toEqual([
      [1, ['Foo', 'Bar'], 'us', 'illidan'],
      [2, ['Baz'], 'eu', 'draenor'],
    ]);
    expect(a.playerCount).toBe(3);
  });

  it('guild= makes the player count unknown', () => {
    expect(analyzeProfile('guild=us,illidan,Some Guild').playerCount).toBeNull();
  });

  it('reports simc actor errors: digit names, missing copy source, nothing to sim', () => {
    expect(codes('warrior=1abc')).toContain('actor_name_digit');
    expect(codes('warrior=A\ncopy=B,Nope')).toContain('copy_source_not_found');
    expect(codes('iterations=100')).toContain('nothing_to_sim');
    // with an include before it, a missing source may come from the included file: warning, not error
    const a = analyzeProfile('base.simc\ncopy="X"');
    expect(a.diagnostics).toEqual([expect.objectContaining({ code: 'copy_without_source', severity: 'warning' })]);
  });

  it('selects the main actor by profileset_main_actor_index', () => {
    const a = analyzeProfile('warrior=A\nmage=B\nprofileset_main_actor_index=1\nprofileset.x=talents=Q');
    expect(a.mainActor?.name).toBe('B');
    expect(codes('warrior=A\nprofileset_main_actor_index=3\nprofileset.x=talents=Q')).toContain(
      'profileset_main_actor_out_of_range',
    );
  });
});

describe('analyzeProfile: profilesets', () => {
  it('resolves names (quoted, with spaces), = resets, += appends, keeps every line', () => {
    const src = [
      BASE,
      'profileset."My Set"=talents=A', // 6
      'profileset."My Set"+=trinket1=,id=1', // 7
      'profileset.other=talents=B', // 8
      'profileset."My Set"=talents=C', // 9: resets the list
      'profileset.other+=target_error=0.3', // 10
    ].join('\n');
    const a = analyzeProfile(src);
    expect(a.profilesets.map((p) => p.name)).toEqual(['My Set', 'other']);
    const my = a.profilesets[0];
    expect(my?.line).toBe(6);
    expect(my?.lines).toEqual([6, 7, 9]);
    expect(my?.spans).toHaveLength(3);
    expect(my?.options).toEqual([{ line: 9, op: '=', option: 'talents=C', key: 'talents', value: 'C' }]);
    const other = a.profilesets[1];
    expect(other?.simOptions.target_error).toEqual({ key: 'target_error', value: '0.3', numeric: 0.3, line: 10 });
    expect(a.profilesetCandidates).toBe(2);
    // a profileset's own target_error is not a top-level sim option
    expect(a.simOptions.target_error).toBeUndefined();
  });

  it('names with "." are not profilesets in simc; empty sets are not candidates', () => {
    const a = analyzeProfile('warrior=A\nprofileset."v1.2"=talents=A\nprofileset.empty=\n');
    expect(a.profilesetDirectives.map((d) => [d.line, d.name, d.problem !== null])).toEqual([
      [2, null, true],
      [3, 'empty', false],
    ]);
    expect(a.profilesets.map((p) => [p.name, p.isCandidate])).toEqual([['empty', false]]);
    expect(a.profilesetCandidates).toBe(0);
    expect(a.diagnostics.map((d) => d.code)).toEqual(['profileset_name_with_dot']);
  });

  it('expands template variables in names and values', () => {
    const src = 'warrior=A\n$(aldrachi)=CUkAAA\n$(n)=Ald\nprofileset."$(n) build"=hero_talents=$(aldrachi)\n';
    const a = analyzeProfile(src);
    expect(a.templateVariables).toEqual([
      { name: 'aldrachi', value: 'CUkAAA', line: 2 },
      { name: 'n', value: 'Ald', line: 3 },
    ]);
    expect(a.profilesets[0]).toMatchObject({
      name: 'Ald build',
      options: [expect.objectContaining({ option: 'hero_talents=CUkAAA' })],
    });
    expect(codes('warrior=A\nprofileset.x=talents=$(missing)')).toContain('missing_template_variable');
    expect(codes('$(x=1')).toContain('variable_syntax');
  });

  it('rejects actor-creating options inside a profileset', () => {
    expect(codes('warrior=A\nprofileset.x=copy=B')).toContain('profileset_defines_actor');
  });
});

describe('analyzeProfile: service input checks (notes §9)', () => {
  it('lists disallowed directives with line and text, including inside profilesets', () => {
    const src = [
      'warrior=A', // 1
      'json2=/tmp/out.json', // 2
      'threads=8 iterations=100', // 3
      'save_prefix=x', // 4
      'dps_plot_stats=crit', // 5
      'apiKey=secret', // 6
      'profileset.x+=html=report.html', // 7
      'local_json=char.json', // 8
      'progressbar_type=1', // 9
    ].join('\n');
    const a = analyzeProfile(src);
    expect(a.disallowed.map((d) => [d.line, d.directive, d.category, d.profileset])).toEqual([
      [2, 'json2', 'output', null],
      [3, 'threads', 'compute', null],
      [4, 'save_prefix', 'output', null],
      [5, 'dps_plot_stats', 'plot', null],
      [6, 'apiKey', 'secret', null],
      [7, 'html', 'output', 'x'],
      [8, 'local_json', 'file_read', null],
      [9, 'progressbar_type', 'output_format', null],
    ]);
    expect(a.disallowed[1]?.text).toBe('threads=8 iterations=100');
  });

  it('gives the precision warnings the service would give', () => {
    const src = [
      'warrior=A',
      'iterations=300000',
      'target_error=0.005',
      'profileset.x=iterations=1000000',
      'profileset.y=target_error=0',
    ].join('\n');
    const a = analyzeProfile(src);
    expect(a.precisionWarnings).toEqual([
      {
        kind: 'iterations_clamped',
        line: 2,
        requested: 300000,
        applied: 250000,
        message: expect.stringMatching(/250000/),
      },
      {
        kind: 'target_error_floored',
        line: 3,
        requested: 0.005,
        applied: 0.01,
        message: expect.stringMatching(/0\.01/),
      },
      {
        kind: 'iterations_clamped',
        line: 4,
        requested: 1000000,
        applied: 250000,
        message: expect.stringMatching(/profileset 'x'/),
      },
    ]);
    // target_error=0 is simc's "no error target", not floored
    expect(analyzeProfile('warrior=A\ntarget_error=0').precisionWarnings).toEqual([]);
    expect(analyzeProfile('warrior=A\niterations=250000\ntarget_error=0.01').precisionWarnings).toEqual([]);
  });

  it('records set= blocks (not a simc option, but a service directive)', () => {
    const a = analyzeProfile('warrior=A\nset=foo\nset="bar baz"');
    expect(a.setBlocks.map((s) => [s.line, s.value])).toEqual([
      [2, 'foo'],
      [3, 'bar baz'],
    ]);
    expect(a.variantCount).toBe(2);
  });

  it('lists includes: input=, bare names, stdin, paths, inline comments', () => {
    const a = analyzeProfile('MID1_Warrior_Fury.simc\ninput=../secret/x.simc\n-\nwarrior=A\niterations=10 #note');
    expect(a.includes.map((i) => [i.kind, i.file, i.line, i.isPath, i.looksLikeComment])).toEqual([
      ['bare', 'MID1_Warrior_Fury.simc', 1, false, false],
      ['input', '../secret/x.simc', 2, true, false],
      ['stdin', '-', 3, false, false],
      ['bare', '#note', 5, false, true],
    ]);
    expect(a.diagnostics.map((d) => d.code)).toEqual(['inline_comment']);
  });

  it('warns about "key = value" with spaces and flags deterministic with target_error', () => {
    expect(codes('warrior=A\niterations = 100')).toContain('empty_option_name');
    expect(codes('warrior=A\ndeterministic=1\ntarget_error=0.1')).toContain('deterministic_with_target_error');
    expect(codes('warrior=A\ndeterministic=1\niterations=100')).not.toContain('deterministic_with_target_error');
  });
});
