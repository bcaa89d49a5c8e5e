/**
 * src/cli/output/ansi.ts writes what chalk writes for the styles simjob uses (chalk is what it replaced, kept out of
 * start-up): the same bytes at every level, for plain text, nested styles and line breaks.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { colours } from '../../src/cli/output/ansi.js';

const STYLES = ['bold', 'dim', 'red', 'green', 'yellow', 'magenta', 'cyan'] as const;
const LEVELS = [0, 1, 2, 3] as const;

describe('colours', () => {
  it('paints as chalk does, style by style and level by level', () => {
    for (const level of LEVELS) {
      const chalk = new Chalk({ level });
      const ours = colours(level);
      expect(ours.level).toBe(level);
      for (const style of STYLES) {
        const inner = chalk.red('in') + chalk.dim('side');
        for (const text of [
          '',
          'plain',
          42,
          0,
          'two\nlines',
          'crlf\r\nlines\n',
          `nested ${inner} text`,
          `${chalk.bold('a\nb')} and ${inner}\n`,
        ]) {
          expect(ours[style](text), `${style} at level ${level}: ${JSON.stringify(text)}`).toBe(chalk[style](text));
        }
      }
    }
  });

  it('leaves text alone at level 0', () => {
    expect(colours(0).red('failed')).toBe('failed');
    expect(colours(1).red('failed')).toBe('\x1b[31mfailed\x1b[39m');
  });
});
