/**
 * node:crypto, loaded when first used. The build turns a top-level `import … from 'node:crypto'` into a load at
 * start-up (scripts/build.mjs), which costs ~3 ms on Node 24, and most commands never hash or draw a random id.
 */
export const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');
