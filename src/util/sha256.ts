/**
 * SHA-256 of a string as hex, in JavaScript (@noble/hashes): the digests of node:crypto's, without loading
 * node:crypto, which costs ~3 ms of CPU on Node 24. Every local job hashes (its build id, local/simc.ts), so this
 * keeps node:crypto off the local path; keys and signatures (webhooks) still use node:crypto.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));
