import { describe, expect, it } from 'vitest';
import { decideColourLevel } from '../../src/cli/output/colour.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('colour is decided once, in the documented order', () => {
  it('--no-color beats everything, even FORCE_COLOR', () => {
    expect(decideColourLevel(tty, { FORCE_COLOR: '3' }, true)).toBe(0);
  });
  it('a valid FORCE_COLOR beats NO_COLOR and a pipe', () => {
    expect(decideColourLevel(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(1);
    expect(decideColourLevel(pipe, { FORCE_COLOR: '3' }, false)).toBe(3);
  });
  it('FORCE_COLOR=0 turns colour off on a TTY', () => {
    expect(decideColourLevel(tty, { FORCE_COLOR: '0' }, false)).toBe(0);
  });
  it('a non-empty NO_COLOR turns colour off; an empty one does not', () => {
    expect(decideColourLevel(tty, { NO_COLOR: '1' }, false)).toBe(0);
    expect(decideColourLevel(tty, { NO_COLOR: '' }, false)).toBe(1);
  });
  it('TERM=dumb and pipes get no colour', () => {
    expect(decideColourLevel(tty, { TERM: 'dumb' }, false)).toBe(0);
    expect(decideColourLevel(pipe, {}, false)).toBe(0);
  });
  it('a TTY gets colour, deeper when the terminal says so', () => {
    expect(decideColourLevel(tty, {}, false)).toBe(1);
    expect(decideColourLevel(tty, { TERM: 'xterm-256color' }, false)).toBe(2);
    expect(decideColourLevel(tty, { COLORTERM: 'truecolor' }, false)).toBe(3);
  });
});
