/**
 * The /simc addon text that topgear and droptimizer read: from a file or stdin, parsed, its problems as one-line
 * usage errors (exit 2) and its warnings on stderr.
 */
import { ExportError, looksLikeExport, parseAddonExport, type AddonExport } from '../../domain/addon/export.js';
import type { Context } from '../context.js';
import { UsageError } from '../../errors.js';
import { terminalSafeLine } from '../../util/safe.js';
import { CAPS, decodeOrFail, readStdin, readUserFile } from '../../util/read-file.js';

export interface ReadExport {
  exp: AddonExport;
  /** How errors name it: "Export FILE" or "The export on stdin". */
  label: string;
}

/**
 * A simc profile given where the addon's text is wanted: simc's own profiles name their items (`head=tusks,id=…`)
 * and carry an action list or profilesets; the addon writes `head=,id=…`, a `# SimC Addon` line and no actions.
 */
function looksLikeSimcProfile(text: string): boolean {
  if (looksLikeExport(text)) return false;
  return /^(actions[.+=]|profileset\.)/m.test(text) || /^[a-z_]+[0-9]?=[a-z0-9_]+,id=\d/m.test(text);
}

/**
 * `warningPrefix`: put the file's name before each warning (a roster, where several exports speak); `command` names
 * who needs the export in the one error a simc profile gets.
 */
export async function readAddonExport(
  ctx: Context,
  source: string,
  warningPrefix = false,
  command: 'topgear' | 'droptimizer' = 'topgear',
): Promise<ReadExport> {
  const label = source === '-' ? 'The export on stdin' : `Export ${source}`;
  let bytes: Buffer;
  if (source === '-') {
    if (ctx.stdin.isTTY) ctx.out.notice('Paste the /simc text, then press Ctrl-D.');
    bytes = await readStdin(ctx.stdin, label, CAPS.export);
  } else {
    const missing = 'Save the /simc text to a file, or pipe it in with -.';
    bytes = await readUserFile(source, 'Export', { missing }, CAPS.export);
  }
  const text = decodeOrFail(bytes, label);
  if (text.trim() === '') throw new UsageError(`${label} is empty.`, 'Paste the whole text of the /simc window.');
  if (looksLikeSimcProfile(text)) {
    throw new UsageError(
      `${terminalSafeLine(label)}: this is a simc profile; ${command} needs the /simc addon text.`,
      "Type /simc in game and save the window's text to a file (or pipe it in with -); a simc profile goes to " +
        'simjob submit.',
    );
  }
  let exp: AddonExport;
  try {
    exp = parseAddonExport(text);
  } catch (error) {
    if (error instanceof ExportError) throw new UsageError(terminalSafeLine(`${label}: ${error.message}`), error.hint);
    throw error;
  }
  const prefix = warningPrefix && source !== '-' ? `${source}: ` : '';
  for (const warning of exp.warnings) ctx.out.warn(`${prefix}${warning}`);
  return { exp, label };
}
