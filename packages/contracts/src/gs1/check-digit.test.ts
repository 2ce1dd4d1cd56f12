import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gs1CheckDigit, hasValidGs1CheckDigit, withGs1CheckDigit } from './check-digit';
import { gtinToEan13, normaliseGtin } from './gtin';

const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));

describe('GS1 check digits', () => {
  it('matches published examples', () => {
    expect(gs1CheckDigit('400638133393')).toBe(1); // EAN-13 4006381333931
    expect(hasValidGs1CheckDigit('5012345678900')).toBe(true);
    expect(hasValidGs1CheckDigit('036000291452')).toBe(true); // UPC-A
    expect(hasValidGs1CheckDigit('96385074')).toBe(true); // EAN-8
    expect(hasValidGs1CheckDigit('00012345600012')).toBe(true); // GTIN-14
    expect(hasValidGs1CheckDigit('5012345678901')).toBe(false);
  });

  it('accepts every code it completes', () => {
    fc.assert(
      fc.property(digits(7, 17), (body) => {
        expect(hasValidGs1CheckDigit(withGs1CheckDigit(body))).toBe(true);
      }),
    );
  });

  it('rejects any single-digit change', () => {
    fc.assert(
      fc.property(digits(7, 17), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, delta) => {
        const code = withGs1CheckDigit(body);
        const index = at % code.length;
        const changed = (Number(code[index]) + delta) % 10;
        const mutated = code.slice(0, index) + String(changed) + code.slice(index + 1);
        expect(hasValidGs1CheckDigit(mutated)).toBe(false);
      }),
    );
  });

  it('normalises GTINs and maps indicator-0 GTIN-14 to EAN-13', () => {
    expect(normaliseGtin('5012345678900')).toBe('05012345678900');
    expect(normaliseGtin('036000291452')).toBe('00036000291452');
    expect(normaliseGtin('5012345678901')).toBeNull();
    expect(gtinToEan13('05012345678900')).toBe('5012345678900');
    expect(gtinToEan13(withGs1CheckDigit('1501234567890'))).toBeNull();
    expect(gtinToEan13('036000291452')).toBe('0036000291452');
  });
});
