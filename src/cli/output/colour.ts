/**
 * Colour is decided once per stream, from the parsed flags and the environment, in this order:
 * `--no-color` > a valid `FORCE_COLOR` > a non-empty `NO_COLOR` > `TERM=dumb` > whether the stream is a TTY.
 * chalk's own detection is not used: it ignores NO_COLOR and sniffs process.argv.
 */
export type ColourLevel = 0 | 1 | 2 | 3;

export function decideColourLevel(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  noColorFlag: boolean,
): ColourLevel {
  if (noColorFlag) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '' || force === 'true' || force === '1') return 1;
    if (force === '2') return 2;
    if (force === '3') return 3;
    if (force === '0' || force === 'false') return 0;
    // Any other value is not valid: fall through to the rules below.
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if (env.TERM === 'dumb') return 0;
  if (!stream.isTTY) return 0;
  const colorterm = env.COLORTERM ?? '';
  if (colorterm === 'truecolor' || colorterm === '24bit') return 3;
  if ((env.TERM ?? '').includes('256')) return 2;
  return 1;
}
