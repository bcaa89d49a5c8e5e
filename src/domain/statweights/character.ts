/**
 * The character whose stats are weighed, read from a simc profile or from the addon's /simc text: who it is (for
 * the Pawn string and the roster), its primary stat, and the `enchant_<stat>=` points it already has (a profileset
 * must add to those, not replace them).
 */
import { UsageError } from '../../errors.js';
import { ExportError, looksLikeExport, parseAddonExport } from '../addon/export.js';
import { analyzeTokens, isActorDirective } from '../profile/analyze.js';
import { splitOption, tokenize } from '../profile/tokenize.js';

export interface Character {
  name: string;
  /** simc's class token, e.g. `warlock`, `deathknight`. */
  className: string;
  /** simc's spec token, e.g. `affliction`, `beast_mastery`; null when the profile names none. */
  spec: string | null;
  /** The profile's `level=`; null when it sets none (simc then takes the game's maximum). */
  level: number | null;
  /** The profile to weigh (the export's equipped character when it came from the addon). */
  text: string;
  /** `enchant_<stat>=` values the main player already sets, by option name. */
  enchants: Map<string, number>;
  /** What the export's reader noticed without refusing it (an edited text, no checksum line). */
  warnings: string[];
}

/** Read the character from a profile or an export; `label` names the input in errors ("Profile a.simc"). */
export function readCharacter(text: string, label: string): Character {
  if (!looksLikeExport(text)) return fromProfile(text, label);
  try {
    const exp = parseAddonExport(text);
    return { ...fromProfile(exp.baseline.join('\n'), label), warnings: exp.warnings };
  } catch (error) {
    if (error instanceof ExportError) throw new UsageError(`${label}: ${error.message}`, error.hint);
    throw error;
  }
}

function fromProfile(text: string, label: string): Character {
  const tok = tokenize(text);
  const analysis = analyzeTokens(tok);
  const main = analysis.mainActor;
  const player = main?.kind === 'player' ? main : analysis.actors.find((a) => a.kind === 'player');
  if (!player?.class) {
    throw new UsageError(
      `${label} declares no player to weigh.`,
      'A profile needs a class line such as warlock="Name" (or give the /simc export).',
    );
  }
  // An included file (input=, a bare file name, `-`) may define profilesets simjob cannot see: one named "Crit"
  // would merge into statweights' own set of that name. statweights owns its profileset names, so it refuses.
  const include = analysis.includes[0];
  if (include) {
    const what = include.kind === 'input' ? `input=${include.file}` : include.file;
    throw new UsageError(
      `${label} includes another file (${what}, line ${include.line}): statweights cannot see whether it ` +
        'defines profilesets, which would merge into its own.',
      "Paste that file's lines into the profile instead.",
    );
  }
  if (analysis.profilesets.length > 0) {
    throw new UsageError(
      `${label} already has profilesets; statweights adds one per stat itself.`,
      'Remove the profileset lines and run it again.',
    );
  }
  let spec: string | null = null;
  let level: number | null = null;
  const enchants = new Map<string, number>();
  let inPlayer = false;
  for (const token of tok.tokens) {
    const option = splitOption(token.text);
    if (!option) continue;
    if (isActorDirective(option.key)) {
      inPlayer = token.start === player.start;
      continue;
    }
    if (!inPlayer) continue;
    if (option.key === 'spec') spec = option.value.trim().toLowerCase() || null;
    if (option.key === 'level' && /^\d+$/.test(option.value.trim())) level = Number(option.value.trim());
    if (/^enchant_[a-z_]+$/.test(option.key) && Number.isFinite(Number(option.value))) {
      enchants.set(option.key, Number(option.value) + (option.append ? (enchants.get(option.key) ?? 0) : 0));
    }
  }
  return { name: player.name, className: player.class, spec, level, text, enchants, warnings: [] };
}
