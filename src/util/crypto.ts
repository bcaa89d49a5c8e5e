/**
 * node:crypto, loaded when first used. A top-level `import … from 'node:crypto'` would load it at start-up (the
 * bundle requires its built-ins as it loads), and most commands never hash or draw a random id.
 */
export const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');
