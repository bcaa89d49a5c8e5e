/**
 * Reader of the SimulationCraft addon's `/simc` text (spec/addon-export.md): the character, its talents and saved
 * loadouts (and the offspec ones), the equipped gear, the gear in the bags and the Great Vault choices. Pure: no I/O.
 *
 * A bad export throws {@link ExportError} with one line a user can act on; problems that do not stop a top gear
 * run (an edited text, a missing checksum line, option lines left out) are returned as warnings.
 */
import { checkChecksum, stripBom, type ChecksumCheck } from './checksum.js';
import { describesCharacter, isClassKey } from './character-options.js';
import { isSlot, itemId, itemProblem, parseNameComment, type AddonItem, type ItemSource, type Slot } from './items.js';
import { terminalSafe } from '../../util/safe.js';

export interface Loadout {
  name: string;
  talents: string;
}

/** A saved loadout of another spec (`### Offspec Loadouts: <Spec>`): not usable by the character as it is. */
export interface OffspecLoadout extends Loadout {
  /** The spec as the section title names it ("Arms"). */
  spec: string;
}

/** An uncommented line that does not describe the character, left out of the profile. */
export interface LeftOutLine {
  line: number;
  text: string;
}

export interface AddonExport {
  className: string;
  characterName: string;
  spec: string | null;
  /** The active talents (`talents=`), null when the client had no talent data. */
  talents: string | null;
  /** Saved loadouts of the active spec, in export order. */
  loadouts: Loadout[];
  /** Saved loadouts of the other specs, in export order (never among `loadouts`). */
  offspecLoadouts: OffspecLoadout[];
  equipped: Partial<Record<Slot, AddonItem>>;
  bags: AddonItem[];
  vault: AddonItem[];
  /**
   * The export as a simc profile: every uncommented line that describes the character, in order, each equipped
   * item under its name comment. The bags, the vault and the other commented sections are left out (they change
   * nothing in simc), and so are option lines that would change the sim or where it writes (`leftOut`).
   */
  baseline: string[];
  /** Uncommented option lines that are not part of the character (`html=`, `threads=`…), left out of `baseline`. */
  leftOut: LeftOutLine[];
  checksum: ChecksumCheck;
  warnings: string[];
}

export class ExportError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

type Section = 'character' | 'offspec' | 'bags' | 'vault' | 'other';

/** `### <title>` lines and the section each opens. */
function sectionOf(title: string): Section {
  if (/^Gear from Bags/i.test(title)) return 'bags';
  if (/^Weekly Reward Choices/i.test(title)) return 'vault';
  if (/^Offspec Loadouts/i.test(title)) return 'offspec';
  // Merchant items, linked gear, additional character info, the end of the vault.
  return 'other';
}

const COPY_HINT = 'Copy the whole text from the /simc window (Ctrl+A, Ctrl+C), down to its "# Checksum:" line.';
/** A bad export: one line, with how to copy it whole. */
const fail = (message: string): ExportError => new ExportError(message, COPY_HINT);
const quote = (line: string) => `"${line.length > 60 ? `${line.slice(0, 60)}…` : line}"`;
/** The last line of a paste without its checksum, and not a whole line of the export: where the paste was cut. */
const cutAt = (lineNo: number, line: string): ExportError =>
  fail(
    `Line ${lineNo}: the paste ends in ${quote(line)}, which is not a whole line of the export, and has no ` +
      '"# Checksum:" line: it was cut short.',
  );
/** A /simc export starts with comment lines and has a `# Checksum:` line; a profile does not need either. */
export function looksLikeExport(text: string): boolean {
  return /^#\s*SimC Addon/im.test(text) || /^#\s*Checksum:/im.test(text);
}

/** simc splits an option line at whitespace outside double quotes: such a line holds more than one option. */
const splitsInTwo = (line: string) => /\s/.test(line.replace(/"[^"]*"/g, ''));

export function parseAddonExport(input: string): AddonExport {
  const text = stripBom(input);
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const result: AddonExport = {
    className: '',
    characterName: '',
    spec: null,
    talents: null,
    loadouts: [],
    offspecLoadouts: [],
    equipped: {},
    bags: [],
    vault: [],
    baseline: [],
    leftOut: [],
    checksum: checkChecksum(text),
    warnings: [],
  };
  let section: Section = 'character';
  let offspec = '';
  let vaultOpen = false;
  let pendingName: { name: string; ilvl: number; comment: string } | null = null;
  let pendingLoadout: string | null = null;
  let lastItemComment = 0;
  let lastItemLine = 0;
  const lastContentLine = lines.reduce((last, l, i) => (l.trim() ? i + 1 : last), 0);

  const readItem = (slotName: string, options: string, source: ItemSource, lineNo: number): AddonItem => {
    if (!isSlot(slotName)) throw fail(`Line ${lineNo}: "${slotName}" is not a gear slot.`);
    const problem = itemProblem(options);
    if (problem) {
      const cut = lineNo === lastContentLine ? ' (the paste looks cut short)' : '';
      throw fail(`Line ${lineNo}: simc cannot read this ${slotName} item: ${problem}${cut}.`);
    }
    const named = pendingName;
    pendingName = null;
    lastItemLine = lineNo;
    const [name, ilvl] = [named?.name ?? null, named?.ilvl ?? null];
    return { slot: slotName, options, id: itemId(options), name, ilvl, source, line: lineNo };
  };

  const readComment = (line: string, lineNo: number): void => {
    const body = line.replace(/^#\s*/, '');
    const label = /^(Saved|Offspec) Loadout:\s*(.*)$/.exec(body);
    if (label && (section === 'character' || section === 'offspec')) {
      pendingLoadout = (label[2] as string).trim();
      return;
    }
    const talents = /^(offspec_)?talents=(\S+)$/.exec(body);
    if (talents && pendingLoadout !== null) {
      if (talents[1]) {
        const name = pendingLoadout || `${offspec} loadout ${result.offspecLoadouts.length + 1}`;
        result.offspecLoadouts.push({ spec: offspec, name, talents: talents[2] as string });
      } else {
        const name = pendingLoadout || `loadout ${result.loadouts.length + 1}`;
        result.loadouts.push({ name, talents: talents[2] as string });
      }
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
    // Every `<key>=,…` line of the bags and the vault is an item: one simc cannot read is an error, never dropped.
    const [, key = '', options = ''] = /^([a-z_0-9]+)=(.*)$/.exec(body) ?? [];
    if (key && (section === 'bags' || section === 'vault') && (isSlot(key) || options.startsWith(','))) {
      const source = section === 'bags' ? 'bag' : 'vault';
      (source === 'bag' ? result.bags : result.vault).push(readItem(key, options, source, lineNo));
      return;
    }
    if (body === '') {
      pendingName = null;
      return;
    }
    if (/^Checksum:/i.test(body)) return; // after the bags when an export has no character info section
    // The bags and the vault hold only item names and item lines: anything else is an item simc could not read,
    // never dropped in silence. The last line of a paste without its checksum is where a cut falls.
    if (section === 'bags' || section === 'vault') {
      if (lineNo === lastContentLine && result.checksum.state === 'missing') throw cutAt(lineNo, line);
      const where = section === 'bags' ? 'the bags' : 'the Great Vault';
      throw fail(`Line ${lineNo}: ${quote(line)} in ${where} is neither an item name nor an item line simc can read.`);
    }
    if (lineNo === lastContentLine && result.checksum.state === 'missing' && result.className && /\(\d*$/.test(body)) {
      throw cutAt(lineNo, line);
    }
  };

  /** An uncommented line: a simc option of the character, an equipped item, or an option that is left out. */
  const readOption = (line: string, lineNo: number): void => {
    if (section === 'bags' || section === 'vault') {
      const what = `${quote(line)} is not commented out`;
      throw fail(`Line ${lineNo}: ${what}; the addon comments out every bag and vault item.`);
    }
    const eq = line.indexOf('=');
    const key = eq > 0 ? line.slice(0, eq) : '';
    const value = line.slice(eq + 1);
    // `main_` at the end of a paste without its checksum: a line cut before its `=`.
    const last = lineNo === lastContentLine && result.checksum.state === 'missing';
    if (eq <= 0 && last && result.className) throw cutAt(lineNo, line); // a text with no class line is no export
    if (isSlot(key)) {
      if (value === '') return; // an empty slot
      if (result.equipped[key]) throw fail(`Line ${lineNo}: ${key} is equipped twice.`);
      const comment = pendingName?.comment;
      result.equipped[key] = readItem(key, value, 'equipped', lineNo);
      if (comment) result.baseline.push(comment);
      result.baseline.push(line);
      return;
    }
    if (!describesCharacter(key)) {
      result.leftOut.push({ line: lineNo, text: line });
      return;
    }
    if (splitsInTwo(line)) {
      throw fail(`Line ${lineNo}: ${quote(line)} holds more than one option (simc splits a line at spaces).`);
    }
    if (isClassKey(key) && !result.className) {
      result.className = key;
      result.characterName = value.replace(/^"(.*)"$/, '$1');
    } else if (key === 'spec') result.spec = value;
    else if (key === 'talents') result.talents = value;
    if (!result.className) {
      throw fail(`Line ${lineNo}: ${quote(line)} comes before the class line (e.g. warrior="Name").`);
    }
    result.baseline.push(line);
  };

  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    // simc splits lines at LF only: a CR inside a line joins two lines into one that reads as neither.
    if (raw.includes('\r')) {
      throw fail(
        `Line ${lineNo}: ${quote(raw.trim())} holds a carriage return (CR) inside it, so simc would read it as one ` +
          'line and no item; save the export with ordinary line breaks.',
      );
    }
    // Every line is text from outside: control characters (ESC, C1), line separators and bidirectional overrides
    // are written as escapes (`\x1b`) before anything reads it, so no name, loadout or option carries one raw into
    // the profile, a profileset name or the terminal.
    const line = terminalSafe(raw.trim());
    if (line === '') {
      // The offspec loadouts are one block; what follows it (trait strings, the gear) is the character again.
      if (section === 'offspec') section = 'character';
      return;
    }
    if (line.startsWith('###')) {
      const title = line.replace(/^#+\s*/, '');
      if (/^End of Weekly Reward Choices/i.test(title)) vaultOpen = false;
      section = sectionOf(title);
      if (section === 'vault') vaultOpen = true;
      if (section === 'offspec') offspec = title.replace(/^Offspec Loadouts:?\s*/i, '') || 'offspec';
      pendingName = null;
      pendingLoadout = null;
      return;
    }
    if (line.startsWith('#')) readComment(line, lineNo);
    else readOption(line, lineNo);
  });

  checkWhole(result, text, lines, { vaultOpen, lastItemComment, lastItemLine, lastContentLine });
  addWarnings(result);
  return result;
}

interface Ends {
  vaultOpen: boolean;
  lastItemComment: number;
  lastItemLine: number;
  lastContentLine: number;
}

/** What only the whole text can tell: nothing to sim, or a paste cut short. */
function checkWhole(result: AddonExport, text: string, lines: string[], ends: Ends): void {
  if (!result.className) {
    throw fail('The export has no class line (e.g. warrior="Name"): it is not a /simc export.');
  }
  const missing = result.checksum.state === 'missing';
  // A paste without its checksum that stops on an item line with no line break after it may stop inside the line
  // (`# neck=,id=250` for id=250247), which reads as another item: that last line cannot be trusted. One that ends
  // its last line reads whole, and runs with the warning that nothing proves it complete.
  const endsOnItem = ends.lastItemLine > 0 && ends.lastItemLine === ends.lastContentLine;
  if (missing && endsOnItem && !/\n\s*$/.test(text)) {
    const line = quote(lines[ends.lastItemLine - 1]?.trim() ?? '');
    throw fail(
      `Line ${ends.lastItemLine}: the paste ends in this item line, ${line}, with no "# Checksum:" line ` +
        'after it: it was cut short, maybe inside the line.',
    );
  }
  if (Object.keys(result.equipped).length === 0) {
    const why = missing ? 'the paste was cut short' : 'the paste is incomplete';
    throw fail(`The export has no equipped item lines (head=,id=…): ${why}.`);
  }
  if (ends.vaultOpen) {
    throw fail('The export ends inside "### Weekly Reward Choices": the paste was cut short.');
  }
  if (ends.lastItemComment === ends.lastContentLine && ends.lastContentLine > 0) {
    const at = ends.lastItemComment;
    throw fail(`The export ends with an item name (line ${at}) but not its item line: the paste was cut short.`);
  }
  if (missing && /^### Additional Character Info/m.test(text)) {
    throw fail('The export has no "# Checksum:" line after its character info: the paste was cut short.');
  }
}

function addWarnings(result: AddonExport): void {
  const { checksum } = result;
  if (checksum.state === 'mismatch') {
    result.warnings.push(
      `The export's checksum (${checksum.written}) does not match its text (${checksum.computed}): ` +
        'it was edited after the addon wrote it. Using it as it is.',
    );
  } else if (checksum.state === 'missing') {
    result.warnings.push(
      'The export has no "# Checksum:" line: it reads whole, but nothing proves that it was not cut short; ' +
        'check that every item you own is in it.',
    );
  }
  if (result.leftOut.length) {
    const named = result.leftOut.map((l) => `line ${l.line} "${l.text}"`).join(', ');
    result.warnings.push(
      'Left out of the profile, as not part of the character (they would change the sim or ' +
        `write files): ${named}.`,
    );
  }
  if (result.talents === null) {
    result.warnings.push(
      'The export has no talents= line (the client had no talent data yet); simc will use none. ' +
        'Run /simc again in game to include them.',
    );
  }
}
