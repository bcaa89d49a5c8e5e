/**
 * Random hex digits from Math.random, for what must only differ between processes and calls: temp file names and
 * lock owners' nonces. None of them is a secret, and node:crypto costs ~2.5 ms (Node 20) to ~4 ms (Node 24) to load
 * and first use in every local command that would draw one. V8 seeds each process's Math.random from the system's
 * entropy.
 */
export function randomHex(length: number): string {
  let out = '';
  while (out.length < length) out += Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, '0');
  return out.slice(0, length);
}
