/**
 * The scenario presets of `--scenarios` and the shape of a scenario: data only, apart from scenarios.ts, because
 * commands/submit-flags.ts lists the presets in the --scenarios parser (start-up) and needs nothing else of it.
 */
export interface Scenario {
  /** Short, unique within the batch: the preset's label, or `key=value key=value`. Sent as metadata `scenario`. */
  label: string;
  options: Array<[key: string, value: string]>;
}

/** The named presets: one documented table (README "Scenarios"). */
export const PRESETS: Readonly<Record<string, readonly Scenario[]>> = {
  raid: [
    {
      label: 'Patchwerk 1 target',
      options: [
        ['fight_style', 'Patchwerk'],
        ['desired_targets', '1'],
      ],
    },
    {
      label: 'Patchwerk 5 targets',
      options: [
        ['fight_style', 'Patchwerk'],
        ['desired_targets', '5'],
      ],
    },
    { label: 'DungeonSlice', options: [['fight_style', 'DungeonSlice']] },
  ],
  targets: [
    { label: '1 target', options: [['desired_targets', '1']] },
    { label: '3 targets', options: [['desired_targets', '3']] },
    { label: '5 targets', options: [['desired_targets', '5']] },
    { label: '8 targets', options: [['desired_targets', '8']] },
  ],
  movement: [
    { label: 'Patchwerk', options: [['fight_style', 'Patchwerk']] },
    { label: 'LightMovement', options: [['fight_style', 'LightMovement']] },
    { label: 'HeavyMovement', options: [['fight_style', 'HeavyMovement']] },
  ],
  length: [
    { label: '2 min', options: [['max_time', '120']] },
    { label: '5 min', options: [['max_time', '300']] },
    { label: '8 min', options: [['max_time', '480']] },
  ],
  dungeon: [
    { label: 'DungeonSlice', options: [['fight_style', 'DungeonSlice']] },
    { label: 'DungeonRoute', options: [['fight_style', 'DungeonRoute']] },
  ],
};
