import { describe, expect, it } from 'vitest';
import { plainLocalWait } from '../../../src/local/head-start.js';

describe('plainLocalWait: which command lines get a head start', () => {
  it('takes one profile file with --local and --wait, in any order, with flags that leave the run as it is', () => {
    expect(plainLocalWait(['submit', 'p.simc', '--local', '--wait'])).toEqual({ profile: 'p.simc', values: new Map() });
    expect(plainLocalWait(['submit', '-w', '--json', '--local', 'p.simc', '--simc', '/opt/simc', '--timeout=5m', '-c', 'nightly'])).toEqual({
      profile: 'p.simc',
      values: new Map([['--simc', '/opt/simc'], ['--timeout', '5m'], ['--channel', 'nightly']]),
    });
  });

  it('leaves every other line to the CLI', () => {
    for (const argv of [
      ['submit', 'p.simc', '--local'], // no wait: the worker runs it
      ['submit', 'p.simc', '--wait'], // remote
      ['status', 'p.simc', '--local', '--wait'],
      ['-q', 'submit', 'p.simc', '--local', '--wait'], // a global flag first
      ['submit', 'a.simc', 'b.simc', '--local', '--wait'], // a batch
      ['submit', '-', '--local', '--wait'], // stdin
      ['submit', 'profiles/*.simc', '--local', '--wait'], // a glob
      ['submit', 'p.simc', '--local', '--wait', '--html'], // changes simc's arguments
      ['submit', 'p.simc', '--local', '--wait', '--multistage'],
      ['submit', 'p.simc', '--local', '--wait', '-p', 'work'], // another config profile
      ['submit', 'p.simc', '--local', '--wait', '--idempotency-key', 'k'],
      ['submit', 'p.simc', '--local', '--wait', '--simc'], // a flag without its value
      ['submit', 'p.simc', '--local', '--wait=yes'],
      ['submit', 'p.simc', '--local', '--wait', '--', 'x'],
    ]) {
      expect(plainLocalWait(argv), argv.join(' ')).toBeUndefined();
    }
  });
});
