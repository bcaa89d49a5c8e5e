/** Small formatters shared by every human view. */

export function formatDuration(ms: number | null | undefined): string | undefined {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return undefined;
  const s = Math.round(ms / 1000);
  if (s < 60) return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} m`;
}

/** One formatter per digit count: toLocaleString with options builds a new (costly) one per call. */
const formatters = new Map<number, Intl.NumberFormat>();

/** en-US grouping, `digits` decimals: the output of Intl.NumberFormat, which rounds half away from zero. */
export function formatNumber(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  const fast = formatScaled(n, digits) ?? formatPlainDecimal(n, digits);
  if (fast !== undefined) return fast;
  let format = formatters.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(digits, format);
  }
  return format.format(n);
}

/**
 * formatNumber in integer arithmetic, the common case and the fastest (a 20,000-row `result --all` formats 80,000
 * numbers): |n| × 10^digits, rounded to the nearest integer. Rounding the decimal as written (below) gives the same
 * whenever that product is clearly off a half: below 2^31 it lies within 4e-7 of the written decimal's own, so
 * 1e-5 from the half leaves no doubt. Near a half, for large numbers or many digits, undefined.
 */
function formatScaled(n: number, digits: number): string | undefined {
  if (digits > 3) return undefined;
  const scaled = Math.abs(n) * 10 ** digits;
  if (scaled >= 2 ** 31 || Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-5) return undefined;
  const rounded = Math.round(scaled);
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  if (digits === 0) return `${sign}${grouped(rounded)}`;
  const unit = 10 ** digits;
  return `${sign}${grouped(Math.floor(rounded / unit))}.${String(rounded % unit).padStart(digits, '0')}`;
}

/** 1234567 → "1,234,567". */
function grouped(whole: number): string {
  return whole < 1000 ? String(whole) : `${grouped(Math.floor(whole / 1000))},${String(whole % 1000).padStart(3, '0')}`;
}

/** "129" → "130", "99" → "100": one added to a string of decimal digits. */
function incrementDecimal(digitsText: string): string {
  let i = digitsText.length - 1;
  while (i >= 0 && digitsText.charCodeAt(i) === 57) i--; // trailing '9's become '0's
  const zeros = '0'.repeat(digitsText.length - 1 - i);
  return i < 0 ? `1${zeros}` : `${digitsText.slice(0, i)}${String.fromCharCode(digitsText.charCodeAt(i) + 1)}${zeros}`;
}

/**
 * formatNumber without Intl, which is much faster. It rounds the shortest decimal form of the number (String(n)),
 * as ICU does, so both agree digit for digit; numbers that String() writes with an exponent are left to Intl
 * (undefined).
 */
function formatPlainDecimal(n: number, digits: number): string | undefined {
  const text = String(Math.abs(n));
  if (text.includes('e')) return undefined;
  const dot = text.indexOf('.');
  let whole = dot < 0 ? text : text.slice(0, dot);
  let fraction = dot < 0 ? '' : text.slice(dot + 1);
  if (fraction.length > digits) {
    const roundUp = fraction.charCodeAt(digits) >= 53; // '5' or more
    fraction = fraction.slice(0, digits);
    if (roundUp) {
      const all = incrementDecimal(whole + fraction);
      whole = all.slice(0, all.length - digits);
      fraction = all.slice(all.length - digits);
    }
  } else {
    fraction = fraction.padEnd(digits, '0');
  }
  let grouped = '';
  while (whole.length > 3) {
    grouped = `,${whole.slice(-3)}${grouped}`;
    whole = whole.slice(0, -3);
  }
  return `${n < 0 || Object.is(n, -0) ? '-' : ''}${whole}${grouped}${digits > 0 ? `.${fraction}` : ''}`;
}

export function formatTime(iso: string | null | undefined): string | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
}

/** How a job of a batch or a comparison is named: `alpha.simc`, or `alpha.simc [DungeonSlice]` for a scenario's. */
export function scenarioLabel(k: { profile: string; scenario?: string | null | undefined }): string {
  return k.scenario ? `${k.profile} [${k.scenario}]` : k.profile;
}

/** `+1,234.5`, `−0.52`; a value that rounds to zero has no sign. */
export function signed(n: number, digits: number): string {
  const text = formatNumber(Math.abs(n), digits);
  if (text !== '—' && !/[1-9]/.test(text)) return text; // it rounds to zero: no sign
  return n > 0 ? `+${text}` : `−${text}`;
}
