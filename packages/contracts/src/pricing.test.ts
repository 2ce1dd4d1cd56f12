import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, lineVat, priceSale, scaledRate } from './pricing';

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
