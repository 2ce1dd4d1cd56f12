import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinor, mulDivRound, parseDecimalToMinor, toMinor } from './money';

describe('money', () => {
  it('converts request numbers to minor units', () => {
    expect(toMinor(12.5, 2)).toBe(1250);
    expect(toMinor(0.1, 2)).toBe(10);
    expect(toMinor(19.99, 2)).toBe(1999);
    expect(toMinor(1000, 0)).toBe(1000);
    expect(toMinor(1.234, 3)).toBe(1234);
  });

  it('refuses more decimals than the currency allows', () => {
    expect(() => toMinor(1.005, 2)).toThrow(/decimal places/);
    expect(() => toMinor(0.5, 0)).toThrow(/decimal places/);
    expect(() => toMinor(Number.NaN, 2)).toThrow(/finite/);
    expect(() => toMinor(Number.POSITIVE_INFINITY, 2)).toThrow(/finite/);
  });

  it('formats and parses as exact inverses', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), fc.integer({ min: 0, max: 4 }), (minor, exp) => {
        expect(parseDecimalToMinor(formatMinor(minor, exp), exp)).toBe(minor);
      }),
    );
    expect(formatMinor(5, 2)).toBe('0.05');
    expect(formatMinor(-1250, 2)).toBe('-12.50');
    expect(formatMinor(7, 0)).toBe('7');
  });

  it('round-trips every two-decimal number through toMinor and formatMinor', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e11 }), (cents) => {
        const asNumber = Number(formatMinor(cents, 2));
        expect(toMinor(asNumber, 2)).toBe(cents);
      }),
    );
  });

  it('rounds half away from zero in mulDivRound', () => {
    expect(mulDivRound(1000, 18n, 118n)).toBe(153); // 152.54 -> 153
    expect(mulDivRound(5, 1n, 2n)).toBe(3);
    expect(mulDivRound(-5, 1n, 2n)).toBe(-3);
    expect(mulDivRound(4, 1n, 2n)).toBe(2);
  });
});
