import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * SHA-256 of a string as hex. @noble/hashes rather than node:crypto: the local build id is hashed on every run's
 * end, and loading node:crypto there costs a run 3–4 ms on Node 24 (docs/performance.md).
 */
export const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));
