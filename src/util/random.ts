/**
 * Random digits from Math.random, for what must only differ between processes and calls: job ids' random part,
 * temp file names and lock owners' nonces. None of them is a secret, and node:crypto costs ~2.5 ms (Node 20) to
 * ~4 ms (Node 24) to load and first use in every local command that would draw one. V8 seeds each process's
 * Math.random from the system's entropy.
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
