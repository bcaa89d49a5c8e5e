// Regenerate the committed completion scripts (completions/) from the command tree: src/cli/program.ts registers
// the commands, each defined (flags, help) in src/cli/commands/<name>/command.ts.
// Usage: npm run completions                          writes the files that changed
//        npm run completions -- --check               exits 1, naming the stale files, when any differs
//        npm run completions -- [--check] --dir DIR   the same against DIR/completions (tests use this)
// The drift test (test/e2e/completions/drift.test.ts) runs the same comparison, so a new flag fails the tests until
// this has been run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { COMPLETION_FILES, SHELLS, staleScripts, type Shell } from '../src/cli/completions/index.js';
import { simjobCompletion, simjobCompletionOptions, simjobProgram } from '../src/cli/completions/simjob.js';

const args = process.argv.slice(2);
const dirArg = args.includes('--dir') ? args[args.indexOf('--dir') + 1] : undefined;
const root = resolve(dirArg ?? resolve(import.meta.dirname, '..'));
const read = (file: string): string | undefined => {
  try {
    return readFileSync(resolve(root, file), 'utf8');
  } catch {
    return undefined;
  }
};

if (args.includes('--check')) {
  const committed = Object.fromEntries(SHELLS.map((s) => [s, read(COMPLETION_FILES[s])])) as Record<
    Shell,
    string | undefined
  >;
  const stale = staleScripts(simjobProgram(), committed, simjobCompletionOptions());
  if (stale.length) {
    console.error(`Stale: ${stale.map((s) => COMPLETION_FILES[s]).join(', ')}. Run \`npm run completions\`.`);
    process.exit(1);
  }
  console.log('Completion scripts are up to date.');
} else {
  for (const shell of SHELLS) {
    const file = COMPLETION_FILES[shell];
    const script = simjobCompletion(shell);
    if (read(file) === script) continue;
    mkdirSync(dirname(resolve(root, file)), { recursive: true });
    writeFileSync(resolve(root, file), script);
    console.log(`wrote ${file}`);
  }
}
