/**
 * Reader of the SimulationCraft addon's `/simc` text (spec/addon-export.md): the character, its talents and saved
 * loadouts, the equipped gear, the gear in the bags and the Great Vault choices. Pure: no I/O.
 *
 * A bad export throws {@link ExportError} with one line a user can act on; problems that do not stop a top gear
 * run (an edited text, a missing checksum line) are returned as warnings.
 */
import { checkChecksum, type ChecksumCheck } from './checksum.js';
import { isSlot, itemId, itemProblem, parseNameComment, type AddonItem, type ItemSource, type Slot } from './items.js';

export const CLASSES = [
  'deathknight', 'demonhunter', 'druid', 'evoker', 'hunter', 'mage', 'monk', 'paladin', 'priest', 'rogue', 'shaman',
  'warlock', 'warrior',
] as const;

export interface Loadout {
  name: string;
  talents: string;
}

export interface AddonExport {
  className: string;
  characterName: string;
  spec: string | null;
  /** The active talents (`talents=`), null when the client had no talent data. */
  talents: string | null;
  /** Saved loadouts of the active spec, in export order. */
  loadouts: Loadout[];
  equipped: Partial<Record<Slot, AddonItem>>;
  bags: AddonItem[];
  vault: AddonItem[];
  /**
   * The export as a simc profile: every uncommented line, in order, each equipped item under its name comment.
   * The bags, the vault and the other commented sections are left out: they change nothing in simc.
   */
  baseline: string[];
  checksum: ChecksumCheck;
  warnings: string[];
}

export class ExportError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

type Section = 'character' | 'bags' | 'vault' | 'ignored';

/** `### <title>` lines and the section each opens. */
function sectionOf(title: string): Section {
  if (/^Gear from Bags/i.test(title)) return 'bags';
  if (/^Weekly Reward Choices/i.test(title)) return 'vault';
  // Offspec loadouts, merchant items, linked gear, additional character info, the end of the vault.
  return 'ignored';
}

const COPY_HINT = 'Copy the whole text from the /simc window (Ctrl+A, Ctrl+C), down to its "# Checksum:" line.';

export function parseAddonExport(text: string): AddonExport {
  const lines = text.replace(/^\uFEFF/, '').split('\n').map((l) => l.replace(/\r$/, ''));
  const result: AddonExport = {
    className: '', characterName: '', spec: null, talents: null, loadouts: [], equipped: {}, bags: [], vault: [],
    baseline: [], checksum: checkChecksum(text), warnings: [],
  };
  let section: Section = 'character';
  let vaultOpen = false;
  let pendingName: { name: string; ilvl: number; comment: string } | null = null;
  let pendingLoadout: string | null = null;
  let lastItemComment = 0;

  const readItem = (slotName: string, options: string, source: ItemSource, lineNo: number): AddonItem => {
    if (!isSlot(slotName)) throw new ExportError(`Line ${lineNo}: "${slotName}" is not a gear slot.`, COPY_HINT);
    const problem = itemProblem(options);
    if (problem) {
      const cut = lineNo === lastContentLine ? ' (the paste looks cut short)' : '';
      throw new ExportError(`Line ${lineNo}: simc cannot read this ${slotName} item: ${problem}${cut}.`, COPY_HINT);
    }
    const item: AddonItem = { slot: slotName, options, id: itemId(options), name: pendingName?.name ?? null, ilvl: pendingName?.ilvl ?? null, source, line: lineNo };
    pendingName = null;
    return item;
  };
  const lastContentLine = lines.reduce((last, l, i) => (l.trim() ? i + 1 : last), 0);

  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.trim();
    if (line === '') return;
    if (line.startsWith('###')) {
      const title = line.replace(/^#+\s*/, '');
      if (/^End of Weekly Reward Choices/i.test(title)) vaultOpen = false;
      section = sectionOf(title);
      if (section === 'vault') vaultOpen = true;
      pendingName = null;
      return;
    }
    if (line.startsWith('#')) {
      const body = line.replace(/^#\s*/, '');
      const saved = /^Saved Loadout:\s*(.*)$/.exec(body);
      if (saved && section === 'character') {
        pendingLoadout = (saved[1] as string).trim();
        return;
      }
      const talents = /^talents=(\S+)$/.exec(body);
      if (talents && pendingLoadout !== null) {
        result.loadouts.push({ name: pendingLoadout || `loadout ${result.loadouts.length + 1}`, talents: talents[1] as string });
        pendingLoadout = null;
        return;
      }
      const named = parseNameComment(line);
      if (named) {
        // The name comes first; an optional upgrade comment may follow it before the item line.
        pendingName ??= { ...named, comment: line };
        lastItemComment = lineNo;
        return;
      }
      const item = /^([a-z_0-9]+)=(\S*)\s*$/.exec(body);
      if (item && (section === 'bags' || section === 'vault') && isSlot(item[1] as string)) {
        (section === 'bags' ? result.bags : result.vault).push(readItem(item[1] as string, item[2] as string, section === 'bags' ? 'bag' : 'vault', lineNo));
        return;
      }
      if (body === '') pendingName = null;
      return;
    }

    // An uncommented line: a simc option of the character.
    const eq = line.indexOf('=');
    const key = eq > 0 ? line.slice(0, eq) : '';
    const value = line.slice(eq + 1);
    if (section === 'bags' || section === 'vault') {
      throw new ExportError(`Line ${lineNo}: "${line.slice(0, 60)}" is not commented out; the addon comments out every bag and vault item.`, COPY_HINT);
    }
    if (isSlot(key) && section === 'character') {
      if (value === '') return; // an empty slot
      if (result.equipped[key]) throw new ExportError(`Line ${lineNo}: ${key} is equipped twice.`, COPY_HINT);
      const comment = pendingName?.comment;
      const item = readItem(key, value, 'equipped', lineNo);
      result.equipped[key] = item;
      if (comment) result.baseline.push(comment);
      result.baseline.push(line);
      return;
    }
    if ((CLASSES as readonly string[]).includes(key) && !result.className) {
      result.className = key;
      result.characterName = value.replace(/^"(.*)"$/, '$1');
    } else if (key === 'spec') result.spec = value;
    else if (key === 'talents') result.talents = value;
    if (!result.className) {
      throw new ExportError(`Line ${lineNo}: "${line.slice(0, 60)}" comes before the class line (e.g. warrior="Name").`, COPY_HINT);
    }
    result.baseline.push(line);
  });

  if (!result.className) {
    throw new ExportError('The export has no class line (e.g. warrior="Name"): it is not a /simc export.', COPY_HINT);
  }
  if (Object.keys(result.equipped).length === 0) {
    throw new ExportError('The export has no equipped item lines (head=,id=…): the paste is incomplete.', COPY_HINT);
  }
  if (vaultOpen) {
    throw new ExportError('The export ends inside "### Weekly Reward Choices": the paste was cut short.', COPY_HINT);
  }
  if (lastItemComment === lastContentLine && lastContentLine > 0) {
    throw new ExportError(`The export ends with an item name (line ${lastItemComment}) but not its item line: the paste was cut short.`, COPY_HINT);
  }
  if (result.checksum.state === 'missing' && /^### Additional Character Info/m.test(text)) {
    throw new ExportError('The export has no "# Checksum:" line after its character info: the paste was cut short.', COPY_HINT);
  }
  if (result.checksum.state === 'mismatch') {
    result.warnings.push(`The export's checksum (${result.checksum.written}) does not match its text (${result.checksum.computed}): it was edited after the addon wrote it. Using it as it is.`);
  } else if (result.checksum.state === 'missing' && /^# SimC Addon/m.test(text)) {
    result.warnings.push('The export has no "# Checksum:" line, so it may be incomplete; check that every item you own is in it.');
  }
  if (result.talents === null) result.warnings.push('The export has no talents= line (the client had no talent data yet); simc will use none. Run /simc again in game to include them.');
  return result;
}
