import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currencyExponent,
  formatMoney,
  parseMoneyInput,
  addDecimals,
  compareDecimals,
  formatDecimal,
  isZeroDecimal,
  negateDecimal,
  normaliseDecimal,
  parseDecimal,
  subtractDecimals,
} from './money';

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
    expect(currencyExponent('KWD')).toBe(3);
    expect(currencyExponent('jpy')).toBe(0);
    expect(currencyExponent('EUR')).toBe(2);
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

describe("formatMoney shows an amount in its currency's own decimals, exactly", () => {
  it.each([
    ['12.5', 2, '12.50'],
    ['12.345', 3, '12.345'],
    ['7.50', 0, '8'],
    ['-7.50', 0, '-8'],
    ['0.005', 2, '0.01'],
    ['1.005', 2, '1.01'],
    [1.005, 2, '1.01'],
    [0.1 + 0.2, 2, '0.30'],
    ['123456789012345.67', 2, '123456789012345.67'],
    ['abc', 2, '—'],
    [null, 2, '—'],
  ] as const)('%s with exponent %i is %s', (value, exponent, shown) => {
    expect(formatMoney(value, exponent)).toBe(shown);
  });

  it('agrees with bigint rounding half away from zero on random amounts', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.integer({ min: 0, max: 3 }),
        (units, exponent) => {
          const text = formatDecimal({ units, scale: 4 });
          const step = 10n ** BigInt(4 - exponent);
          const abs = units < 0n ? -units : units;
          const rounded = (abs / step + ((abs % step) * 2n >= step ? 1n : 0n)) * (units < 0n ? -1n : 1n);
          expect(formatMoney(text, exponent)).toBe(
            formatDecimal({ units: rounded === 0n ? 0n : rounded, scale: exponent }),
          );
        },
      ),
    );
  });
});

describe('parseMoneyInput reads what a cashier types', () => {
  it.each([
    ['12', 2, 1200],
    ['12.5', 2, 1250],
    ['12,50', 2, 1250],
    [' 3 ', 0, 3],
    ['1.234', 3, 1234],
    ['12.', 2, 1200],
  ] as const)('%s in exponent %i is %i minor units', (text, exponent, minor) => {
    expect(parseMoneyInput(text, exponent)).toBe(minor);
  });

  it.each([
    ['1.234', 2],
    ['1.5', 0],
    ['abc', 2],
    ['', 2],
    ['1e3', 2],
  ] as const)('refuses %s in exponent %i', (text, exponent) => {
    expect(parseMoneyInput(text, exponent)).toBeNull();
  });
});
