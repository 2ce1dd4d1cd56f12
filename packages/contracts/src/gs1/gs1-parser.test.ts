import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withGs1CheckDigit } from './check-digit';
import { GS, type Gs1Element, Gs1ParseError, encodeGs1, gs1DateToIso, parseGs1 } from './gs1-parser';

const NOW = new Date('2024-06-15T00:00:00Z');

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof Gs1ParseError) return error.code;
    throw error;
  }
  return undefined;
}

describe('parseGs1', () => {
  it('reads a GS1 DataMatrix from a pharmaceutical pack', () => {
    const data = parseGs1(`]d2010501234567890017260331104711AB${GS}21SN0001XYZ`, { now: NOW });
    expect(data).toMatchObject({
      symbology: 'datamatrix',
      gtin: '05012345678900',
      expiry: '2026-03-31',
      batch: '4711AB',
      serial: 'SN0001XYZ',
    });
    expect(data.elements.map((e) => e.ai)).toEqual(['01', '17', '10', '21']);
  });

  it('handles each GS1 symbology identifier and a leading FNC1', () => {
    for (const [id, symbology] of [
      [']d2', 'datamatrix'],
      [']C1', 'gs1-128'],
      [']Q3', 'qr'],
      [']e0', 'databar'],
    ] as const) {
      expect(parseGs1(`${id}${GS}0105012345678900`).symbology).toBe(symbology);
    }
    expect(parseGs1('0105012345678900').symbology).toBe('unmarked');
  });

  it('reads the bracketed human-readable form', () => {
    const data = parseGs1('(01)05012345678900(17)250200(10)LOT7(21)ABC', { now: NOW });
    expect(data).toMatchObject({
      symbology: 'human-readable',
      gtin: '05012345678900',
      expiry: '2025-02-28',
      batch: 'LOT7',
      serial: 'ABC',
    });
  });

  it('treats day 00 as the end of the month, leap years included', () => {
    expect(gs1DateToIso('240200', NOW)).toBe('2024-02-29');
    expect(gs1DateToIso('231100', NOW)).toBe('2023-11-30');
  });

  it('applies the GS1 sliding century window', () => {
    expect(gs1DateToIso('991231', NOW)).toBe('1999-12-31');
    expect(gs1DateToIso('740101', NOW)).toBe('2074-01-01');
    expect(gs1DateToIso('750101', NOW)).toBe('1975-01-01');
  });

  it('passes other AIs through, including 4-digit and NHRN ones', () => {
    const data = parseGs1(`01050123456789003103000250714ABC123${GS}70032412312359${GS}10ZZ`, { now: NOW });
    expect(data.ais).toMatchObject({ '3103': '000250', '714': 'ABC123', '7003': '2412312359', '10': 'ZZ' });
  });

  it('gives typed errors for malformed input', () => {
    expect(errorCode(() => parseGs1(''))).toBe('EMPTY');
    expect(errorCode(() => parseGs1(']d1010501234567890'))).toBe('UNSUPPORTED_SYMBOLOGY');
    expect(errorCode(() => parseGs1('0105012345678901'))).toBe('INVALID_CHECK_DIGIT');
    expect(errorCode(() => parseGs1('01050123456789'))).toBe('TRUNCATED');
    expect(errorCode(() => parseGs1('010501234567890017131301'))).toBe('INVALID_DATE');
    expect(errorCode(() => parseGs1('010501234567890017260230'))).toBe('INVALID_DATE');
    expect(errorCode(() => parseGs1('5505012345678900'))).toBe('UNKNOWN_AI');
    expect(errorCode(() => parseGs1(`10${'A'.repeat(21)}`))).toBe('INVALID_LENGTH');
    expect(errorCode(() => parseGs1('01ABCDEFGHIJKLMN'))).toBe('INVALID_CHARACTER');
    expect(errorCode(() => parseGs1(`10A${GS}10B`))).toBe('DUPLICATE_AI');
    expect(errorCode(() => parseGs1('(01)0501234567890'))).toBe('INVALID_LENGTH');
    expect(errorCode(() => parseGs1('(01)05012345678900)(10)A'))).toBe('INVALID_CHARACTER');
  });
});

const gtinArb = fc
  .array(fc.integer({ min: 0, max: 9 }), { minLength: 13, maxLength: 13 })
  .map((digits) => withGs1CheckDigit(digits.join('')));
// Years within 49 of the reference year stay in the same century under the GS1 rule.
const expiryArb = fc
  .record({
    year: fc.integer({ min: 1975, max: 2073 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 0, max: 28 }),
  })
  .map(
    ({ year, month, day }) =>
      `${String(year % 100).padStart(2, '0')}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`,
  );
const alphanumeric = (max: number) =>
  fc.string({
    unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789-./'),
    minLength: 1,
    maxLength: max,
  });

describe('GS1 round trip (property)', () => {
  it('parses back whatever it encodes, in any element order', () => {
    fc.assert(
      fc.property(
        gtinArb,
        expiryArb,
        alphanumeric(20),
        alphanumeric(20),
        fc.boolean(),
        fc.constantFrom(']d2', ']C1', ']Q3', ''),
        fc.func(fc.integer()),
        (gtin, expiry, batch, serial, humanReadable, symbologyId, order) => {
          const elements: Gs1Element[] = [
            { ai: '01', value: gtin },
            { ai: '17', value: expiry },
            { ai: '10', value: batch },
            { ai: '21', value: serial },
          ].sort((a, b) => order(a.ai) - order(b.ai));
          const raw = humanReadable
            ? encodeGs1(elements, { humanReadable: true })
            : encodeGs1(elements, { symbologyId });
          const parsed = parseGs1(raw, { now: NOW });
          expect(parsed.gtin).toBe(gtin);
          expect(parsed.batch).toBe(batch);
          expect(parsed.serial).toBe(serial);
          expect(parsed.expiry).toBe(gs1DateToIso(expiry, NOW));
          expect(parsed.elements).toEqual(elements);
        },
      ),
    );
  });
});
