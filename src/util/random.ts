/**
 * Random digits from Math.random, for what must only differ between processes and calls: job ids' random part,
 * temp file names and lock owners' nonces. None of them is a secret, so no local command needs to load node:crypto
 * to draw one. V8 seeds each process's Math.random from the system's entropy.
 */
export function randomDigits(count: number, base: number): number[] {
  return Array.from({ length: count }, () => Math.floor(Math.random() * base));
}

/** `length` random lower-case hex digits. */
export function randomHex(length: number): string {
  return randomDigits(length, 16)
    .map((digit) => digit.toString(16))
    .join('');
}
