import { nodeCrypto } from './crypto.js';

/** SHA-256 of a string as hex. */
export const sha256Hex = (text: string): string => nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex');
