import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/util/format.js';

const intl = (n: number, digits: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);

describe('formatNumber', () => {
  it('writes every number digit for digit as Intl.NumberFormat en-US does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.integer({ min: -2e6, max: 2e6 }).map((n) => n / 200),
        ),
        fc.integer({ min: 0, max: 3 }),
        (n, digits) => {
          expect(formatNumber(n, digits)).toBe(intl(n, digits));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('agrees with Intl on the figures views print: DPS-sized numbers, and numbers a hair from a half', () => {
    const nearHalf = fc
      .tuple(
        fc.integer({ min: -3e9, max: 3e9 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(0, 1e-13, -1e-13, 1e-9, -1e-9, 2e-6, -2e-6, 1e-4),
      )
      .map(([k, digits, off]) => [(k + 0.5) / 10 ** digits + off, digits] as const);
    const dps = fc.tuple(fc.double({ min: -5e8, max: 5e8, noNaN: true }), fc.integer({ min: 0, max: 3 }));
    fc.assert(
      fc.property(fc.oneof(nearHalf, dps), ([n, digits]) => {
        expect(formatNumber(n, digits)).toBe(intl(n, digits));
      }),
      { numRuns: 50_000 },
    );
  });

  it('rounds halves away from zero on the decimal as written, carries, groups and keeps the sign of -0', () => {
    for (const [n, digits, text] of [
      [0.15, 1, '0.2'],
      [1.005, 2, '1.01'],
      [-2.5, 0, '-3'],
      [999.95, 1, '1,000.0'],
      [9_999_999.5, 0, '10,000,000'],
      [-0.04, 1, '-0.0'],
      [-0, 0, '-0'],
      [1234567.891, 2, '1,234,567.89'],
    ] as const) {
      expect(formatNumber(n, digits)).toBe(text);
      expect(text).toBe(intl(n, digits));
    }
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber(Number.NaN)).toBe('—');
  });
});
