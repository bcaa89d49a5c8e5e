import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UsageError } from '../errors.js';
import { terminalSafeLine } from './safe.js';

/**
 * How much of a kind of input simjob reads before it refuses it, and why that is enough, for the error:
 * `{ bytes: 4 MB, why: 'a /simc export is a few tens of kB' }`.
 */
export interface SizeCap {
  bytes: number;
  why: string;
}

const MB = 1024 * 1024;
/** The caps of every kind of file simjob reads that a user names (or pipes in). */
export const CAPS = {
  /** A /simc export: real ones are 5–25 kB; a hoarder's bags of 5,000 items are about 300 kB. UTF-16 doubles it. */
  export: { bytes: 8 * MB, why: 'a /simc export is a few tens of kB' },
  /** A profile: the service takes 2 MB (UTF-8); the same text saved as UTF-16 is up to twice that. */
  profile: { bytes: 4 * MB + 2, why: 'the service takes profiles of at most 2 MB' },
  /** A droptimizer catalog: the same bound as a catalog fetched from a URL. */
  catalog: { bytes: 16 * MB, why: 'simjob reads a catalog, file or URL, up to 16 MB' },
  /** A saved --json result, or a batch's array of them (each API answer is at most 16 MB). */
  saved: { bytes: 256 * MB, why: 'a saved --json result is at most 16 MB per job' },
  /** A webhook body to verify: the service's deliveries are a few kB. */
  webhookBody: { bytes: 16 * MB, why: 'a webhook delivery is a few kB' },
  /** A signing secret or an API key: one line. */
  secret: { bytes: 64 * 1024, why: 'a secret is one line' },
  /** simjob's own settings and credentials files. */
  config: { bytes: 1 * MB, why: "simjob's settings are a few hundred bytes" },
} as const satisfies Record<string, SizeCap>;

/** A byte count as the caps' messages say it: "64 kB", "16 MB". */
export const size = (bytes: number): string =>
  bytes >= MB ? `${(bytes / MB).toFixed(bytes % MB ? 1 : 0)} MB` : `${Math.ceil(bytes / 1024)} kB`;

/** "is a named pipe (FIFO)", or undefined for a regular file. */
function notAFile(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Bytes read beyond the cap: the error says "over N MB", never how far over. */
export class TooLargeError extends Error {
  constructor() {
    super('it is larger than simjob reads for it');
  }
}

/** Not a regular file: `kind` says what it is ("a named pipe (FIFO)", "a device", "a folder"). */
export class NotAFileError extends Error {
  constructor(readonly kind: string) {
    super(`it is ${kind}, not a file`);
  }
}

/**
 * The core of every read of a file simjob did not write this moment: only a regular file (the open does not wait
 * for a FIFO's writer; a folder, a FIFO, `/dev/zero` or a symlink to one is refused before a byte is read), and never
 * more than `maxBytes` of it, whatever its size claims (`/proc` files say 0). Throws NotAFileError, TooLargeError,
 * or the file system's own error (ENOENT…). Synchronous: the files are small, and node:fs/promises (with the
 * readline it loads) costs more to load than such a read takes.
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const kind = notAFile(fstatSync(fd));
    if (kind) throw new NotAFileError(kind);
    return readCapped(fd, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * Read a file the user named (a profile, an export, a catalog, a saved result), or fail with one line that says
 * why: `noun` names what it is ("Profile", "Export"); `fixes` are the hints for a missing file and for a folder;
 * `cap` bounds it (readRegularFile); `named` is the path as the user gave it, for the messages.
 */
export async function readUserFile(
  path: string,
  noun: string,
  fixes: { missing: string; folder?: string },
  cap: SizeCap,
  named = path,
): Promise<Buffer> {
  const shown = terminalSafeLine(named);
  try {
    return readRegularFile(path, cap.bytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${noun} ${shown} does not exist.`, fixes.missing);
    const folder = code === 'EISDIR' || (error instanceof NotAFileError && error.kind === 'a folder');
    if (folder) throw new UsageError(`${noun} ${shown} is a folder, not a file.`, fixes.folder);
    if (error instanceof NotAFileError) {
      throw new UsageError(`${noun} ${shown} is ${error.kind}, not a file.`, 'Save it to a file and name that.');
    }
    if (error instanceof TooLargeError) {
      throw new UsageError(`${noun} ${shown} is over ${size(cap.bytes)}: ${cap.why}.`, 'Check the file name.');
    }
    throw new UsageError(`Cannot read ${noun.toLowerCase()} ${shown}: ${(error as Error).message}.`);
  }
}

function readCapped(fd: number, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) throw new TooLargeError();
  }
  return Buffer.concat(chunks, total);
}

/**
 * Text as people's tools save it: UTF-8 with or without a byte order mark (Notepad, `Set-Content -Encoding UTF8`),
 * or UTF-16 little- or big-endian after a byte order mark (Windows PowerShell 5.1's `>` and `Out-File`). Without
 * a mark, a NUL in the first two bytes beside a character can only be UTF-16 (text never holds NUL). Returns the
 * text without its mark, and null for bytes that are not valid in the encoding found, with where they broke.
 */
export function decodeText(bytes: Uint8Array): { text: string } | { text: null; badByte: number; encoding: string } {
  const [b0, b1] = [bytes[0], bytes[1]];
  if (bytes.length >= 2 && ((b0 === 0xff && b1 === 0xfe) || (b0 !== 0 && b1 === 0 && bytes.length % 2 === 0))) {
    return utf16(bytes.subarray(b0 === 0xff ? 2 : 0), 'utf-16le');
  }
  if (bytes.length >= 2 && ((b0 === 0xfe && b1 === 0xff) || (b0 === 0 && b1 !== 0 && bytes.length % 2 === 0))) {
    return utf16(bytes.subarray(b0 === 0xfe ? 2 : 0), 'utf-16be');
  }
  const body = b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body) };
  } catch {
    return { text: null, badByte: firstInvalidUtf8(body) + (bytes.length - body.length), encoding: 'UTF-8' };
  }
}

function utf16(body: Uint8Array, label: 'utf-16le' | 'utf-16be') {
  try {
    return { text: new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(body) };
  } catch {
    return { text: null, badByte: body.length, encoding: label.toUpperCase() };
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  // Decoding growing prefixes is quadratic; find the first byte where a fatal decoder fails on a short window.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < bytes.length; i++) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) continue;
    const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    if (width === 0) return i;
    try {
      decoder.decode(bytes.subarray(i, i + width));
      i += width - 1;
    } catch {
      return i;
    }
  }
  return bytes.length;
}

/** decodeText, or one line naming the input and where its bytes broke (exit 2). */
export function decodeOrFail(bytes: Uint8Array, label: string): string {
  const decoded = decodeText(bytes);
  if (decoded.text !== null) return decoded.text;
  throw new UsageError(
    `${label} is not valid ${decoded.encoding} (at byte ${decoded.badByte}).`,
    'Save it as UTF-8 and try again.',
  );
}

/** All of stdin, at most `cap` bytes of it: `label` names it in the error ("The export on stdin"). */
export function readStdin(stdin: NodeJS.ReadableStream, label: string, cap: SizeCap): Promise<Buffer> {
  return readAllBytes(stdin, cap.bytes, () => new UsageError(`${label} is over ${size(cap.bytes)}: ${cap.why}.`));
}

/**
 * Read all of stdin as it came (for `submit -`, a webhook body to verify). Past `maxBytes` it stops reading and
 * throws `tooLarge()` (`< /dev/zero` must not fill the memory).
 */
export async function readAllBytes(
  stdin: NodeJS.ReadableStream,
  maxBytes = Infinity,
  tooLarge: () => Error = () => new Error(`stdin holds more than ${maxBytes} bytes`),
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += bytes.length;
    if (total > maxBytes) {
      (stdin as { destroy?: () => void }).destroy?.();
      throw tooLarge();
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}
