import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimals } from './money';
import { allocate, lineVat, mergeVatByRate, priceSale, scaledRate, vatByRate } from './pricing';

const rates = fc.constantFrom(0, 5, 7.5, 15, 18, 20);
const line = fc.record({
  unitPrice: fc.integer({ min: 0, max: 5_000_000 }),
  quantity: fc.integer({ min: 1, max: 500 }),
  discountPct: fc.integer({ min: 0, max: 100 }),
  rate: rates,
});

describe('sale arithmetic (property tests)', () => {
  it('lines sum to the totals, nothing is negative, VAT is within half a minor unit per line', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 100 }),
        fc.boolean(),
        (ls, basketPct, inclusive) => {
          const inputs = ls.map((l) => {
            const ext = l.unitPrice * l.quantity;
            return {
              unitPrice: l.unitPrice,
              quantity: l.quantity,
              lineDiscount: Math.floor((ext * l.discountPct) / 100),
              rate: scaledRate(l.rate),
            };
          });
          const basket = inputs.reduce((a, l) => a + l.unitPrice * l.quantity - l.lineDiscount, 0);
          const discount = Math.floor((basket * basketPct) / 100);
          const p = priceSale(inputs, discount, inclusive);
          expect(p.lines.reduce((a, l) => a + l.net, 0)).toBe(p.subtotal);
          expect(p.lines.reduce((a, l) => a + l.vat, 0)).toBe(p.vat);
          expect(p.lines.reduce((a, l) => a + l.gross, 0)).toBe(p.total);
          expect(p.subtotal + p.vat).toBe(p.total);
          expect(p.lines.reduce((a, l) => a + l.allocatedDiscount, 0)).toBe(discount);
          expect(p.breakdown.reduce((a, b) => a + b.vat, 0)).toBe(p.vat);
          expect(p.breakdown.reduce((a, b) => a + b.taxable, 0)).toBe(p.subtotal);
          for (const [i, l] of p.lines.entries()) {
            expect(l.net).toBeGreaterThanOrEqual(0);
            expect(l.vat).toBeGreaterThanOrEqual(0);
            expect(l.allocatedDiscount).toBeLessThanOrEqual(l.extended - l.lineDiscount);
            const r = ls[i]!.rate;
            const exact = inclusive ? (l.gross * r) / (100 + r) : (l.net * r) / 100;
            expect(Math.abs(l.vat - exact)).toBeLessThanOrEqual(0.5 + 1e-9);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('allocates proportionally with the leftover units to the largest fractions, never above a weight', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (w, f) => {
          const sum = w.reduce((a, b) => a + b, 0);
          const total = Math.floor(sum * f);
          const parts = allocate(total, w);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(sum === 0 ? 0 : total);
          parts.forEach((p, i) => {
            expect(p).toBeLessThanOrEqual(w[i]!);
            if (sum > 0) expect(Math.abs(p - (total * w[i]!) / sum)).toBeLessThan(1);
          });
        },
      ),
    );
  });

  it('rounds half up: 18 % of an inclusive 1.18 is 0.18; exclusive 0.025 at 20 % is 0.005 -> 1 minor', () => {
    expect(lineVat(118, scaledRate(18), true)).toEqual({ net: 100, vat: 18, gross: 118 });
    expect(lineVat(5, scaledRate(10), false)).toEqual({ net: 5, vat: 1, gross: 6 });
    expect(lineVat(1000, scaledRate(0), true)).toEqual({ net: 1000, vat: 0, gross: 1000 });
  });
});

describe('VAT by rate', () => {
  it('sums lines per rate in the order the rates first appear', () => {
    expect(
      vatByRate([
        { rate: '18', net: 1271, vat: 229 },
        { rate: '0', net: 600, vat: 0 },
        { rate: '18', net: 457, vat: 82 },
      ]),
    ).toEqual([
      { rate: '18', taxable: 1728, vat: 311 },
      { rate: '0', taxable: 600, vat: 0 },
    ]);
  });

  it("merges decimal rows per rate exactly, credit notes' negative rows included", () => {
    const rows = [
      { rate: 18, taxable: '12.71', vat: '2.29' },
      { rate: 0, taxable: '6.00', vat: '0.00' },
      { rate: 5, taxable: '0.10', vat: '0.01' },
      { rate: 18, taxable: '4.57', vat: '0.82' },
      { rate: 5, taxable: '-0.30', vat: '-0.02' },
    ];
    expect(mergeVatByRate(rows)).toEqual([
      { rate: 18, taxable: '17.28', vat: '3.11' },
      { rate: 0, taxable: '6.00', vat: '0.00' },
      { rate: 5, taxable: '-0.20', vat: '-0.01' },
    ]);
    // A currency without minor units, and 0.1 + 0.2 that floating point gets wrong.
    expect(
      mergeVatByRate([
        { rate: 10, taxable: '1500', vat: '150' },
        { rate: 10, taxable: '7', vat: '1' },
      ]),
    ).toEqual([{ rate: 10, taxable: '1507', vat: '151' }]);
    expect(
      mergeVatByRate([
        { rate: 5, taxable: '0.1', vat: '0.1' },
        { rate: 5, taxable: '0.2', vat: '0.2' },
      ]),
    ).toEqual([{ rate: 5, taxable: '0.3', vat: '0.3' }]);
    expect(mergeVatByRate([])).toEqual([]);
  });

  it('adds each rate exactly as addDecimals does, whatever the rows (property)', () => {
    const amount = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((n) => (n / 100).toFixed(2));
    const row = fc.record({ rate: fc.constantFrom(0, 5, 18), taxable: amount, vat: amount });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), (rows) => {
        for (const merged of mergeVatByRate(rows)) {
          const same = rows.filter((r) => r.rate === merged.rate);
          expect(merged.taxable).toBe(addDecimals(same.map((r) => r.taxable)));
          expect(merged.vat).toBe(addDecimals(same.map((r) => r.vat)));
        }
        expect(mergeVatByRate(rows).map((r) => r.rate)).toEqual([...new Set(rows.map((r) => r.rate))]);
      }),
    );
  });
});
