/**
 * The layers of src/ (docs/design.md, "Map of the folders"): the CLI on top, the library core under it, the
 * SimulationCraft domain under that, and the shared helpers (src/util, src/errors.ts, src/version.ts) at the bottom.
 * Type-only imports count: a type that reaches up a layer ties the layers together as much as a value does.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle, type-only imports included: dependencies point one way.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-not-cli',
      severity: 'error',
      comment: 'The library core never reaches the CLI: no commands, no output, no CLI context.',
      from: { path: '^src/core/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'domain-not-cli-or-core',
      severity: 'error',
      comment:
        'The domain reads text and returns data: no CLI, no HTTP client, no local mode, no config, no jobs. ' +
        'It may read the resource model (core/resources/: the types and zod schemas of a job, a result, a summary), ' +
        'which is data, not I/O, and kept in core because the client checks every answer with it.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(cli|core)/', pathNot: '^src/core/resources/' },
    },
    {
      name: 'shared-not-layers',
      severity: 'error',
      comment: 'The shared helpers sit under every layer.',
      from: { path: '^src/(util/|errors\\.ts|version\\.ts)' },
      to: { path: '^src/(cli|core|domain)/' },
    },
    {
      name: 'output-only-renders',
      severity: 'error',
      comment:
        'output/ renders data: it neither talks HTTP, runs local jobs nor calls a command. ' +
        'The data it renders is the resource model (core/resources/), which it may import.',
      from: { path: '^src/cli/output/' },
      to: { path: '^src/(core/(api|local|webhook)|cli/commands)/' },
    },
    {
      name: 'commands-not-each-other',
      severity: 'error',
      comment: "A command does not borrow another command's code: what two share lives below them.",
      from: { path: '^src/cli/commands/([^/]+)/' },
      to: { path: '^src/cli/commands/([^/]+)/', pathNot: '^src/cli/commands/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
  },
};
