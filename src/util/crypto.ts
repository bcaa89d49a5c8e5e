/**
 * node:crypto, loaded when first used. A top-level `import … from 'node:crypto'` would load it at start-up (the
 * bundle requires its built-ins as it loads), which costs ~3 ms on Node 24, and most commands never hash or draw a
 * random id.
 */
export const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');
