import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyMinorUnits } from './currency';
import {
  addDecimals,
  compareDecimals,
  formatDecimal,
  isZeroDecimal,
  negateDecimal,
  normaliseDecimal,
  parseDecimal,
  subtractDecimals,
} from './decimal';

describe('decimal money strings', () => {
  it('parses and formats without floating point', () => {
    expect(parseDecimal('12.50')).toEqual({ units: 1250n, scale: 2 });
    expect(formatDecimal({ units: -5n, scale: 2 })).toBe('-0.05');
    expect(addDecimals(['0.10', '0.20'])).toBe('0.30');
    expect(addDecimals(['99999999999999999.99', '0.01'])).toBe('100000000000000000.00');
    expect(subtractDecimals('10', '12.345')).toBe('-2.345');
    expect(negateDecimal('-1.00')).toBe('1.00');
    expect(isZeroDecimal('-0.000')).toBe(true);
    expect(compareDecimals('1.5', '1.50')).toBe(0);
    expect(compareDecimals('-1', '0.01')).toBe(-1);
  });

  it('pads to the currency scale but never rounds digits away', () => {
    expect(normaliseDecimal('12.5', 2)).toBe('12.50');
    expect(normaliseDecimal('0.125', 2)).toBe('0.125');
    expect(normaliseDecimal('7', 3)).toBe('7.000');
  });

  it('rejects anything that is not a plain decimal', () => {
    for (const bad of ['', '1e3', '1,50', 'abc', '1.2.3', 'NaN'])
      expect(() => parseDecimal(bad)).toThrow(TypeError);
  });

  it('knows currencies with 0 and 3 minor units', () => {
    expect(currencyMinorUnits('KWD')).toBe(3);
    expect(currencyMinorUnits('jpy')).toBe(0);
    expect(currencyMinorUnits('EUR')).toBe(2);
  });

  it('adds exactly like integer cents', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -10_000_000, max: 10_000_000 }), { maxLength: 30 }), (cents) => {
        const asString = cents.map((c) => formatDecimal({ units: BigInt(c), scale: 2 }));
        const expected = cents.reduce((sum, c) => sum + c, 0);
        expect(addDecimals(asString, 2)).toBe(formatDecimal({ units: BigInt(expected), scale: 2 }));
      }),
    );
  });
});
