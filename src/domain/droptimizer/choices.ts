/** The values of droptimizer's --difficulty and --source, without the catalog's schema (program.ts loads this). */
export const DIFFICULTIES = ['lfr', 'normal', 'heroic', 'mythic'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const SOURCE_KINDS = ['raid', 'dungeons', 'vault'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
