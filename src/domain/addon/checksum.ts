/** The addon's `# Checksum: <hex>` line: Adler-32 of every byte before that line, in hex without leading zeros. */

const MOD_ADLER = 65521;

export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  // Sums stay exact in doubles for thousands of bytes; reduce every 3800 bytes (well under 2^53).
  for (let i = 0; i < bytes.length;) {
    const end = Math.min(bytes.length, i + 3800);
    for (; i < end; i++) {
      a += bytes[i] as number;
      b += a;
    }
    a %= MOD_ADLER;
    b %= MOD_ADLER;
  }
  return ((b << 16) | a) >>> 0;
}

export type ChecksumState = 'valid' | 'mismatch' | 'missing';

export interface ChecksumCheck {
  state: ChecksumState;
  /** What the line says (lower-case hex). */
  written?: string;
  /** What the text before it adds up to. */
  computed?: string;
}

/**
 * The text without a leading byte-order mark. Windows PowerShell 5.1's `Set-Content -Encoding UTF8` and Notepad's
 * "UTF-8 with BOM" add one when the export is saved; the addon's checksum never covers it.
 */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Check the checksum line of an export; `text` is the whole paste (a byte-order mark is not part of it). */
export function checkChecksum(paste: string): ChecksumCheck {
  const text = stripBom(paste);
  const match = /^# Checksum: *([0-9a-fA-F]+)[ \t\r]*$/m.exec(text);
  if (!match) return { state: 'missing' };
  const written = (match[1] as string).toLowerCase().replace(/^0+(?=.)/, '');
  const before = text.slice(0, match.index);
  const computed = adler32(Buffer.from(before, 'utf8')).toString(16);
  if (computed === written) return { state: 'valid', written, computed };
  // A paste that went through Windows line endings adds \r before every \n; the addon wrote \n only.
  const unix = adler32(Buffer.from(before.replace(/\r\n/g, '\n'), 'utf8')).toString(16);
  return { state: unix === written ? 'valid' : 'mismatch', written, computed };
}
