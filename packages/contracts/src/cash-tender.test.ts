import { describe, expect, it } from 'vitest';
import { cashConfirmThreshold, cashNeedsConfirmation } from './money';

describe('27.9: when a cash tender needs the cashier to confirm it', () => {
  it('27.9: 20x the total, never below one largest note, never above a hundred of them', () => {
    // USD: largest note 100.00.
    expect(cashConfirmThreshold(150, 'USD', 2)).toBe(10_000);
    expect(cashConfirmThreshold(100_000, 'USD', 2)).toBe(1_000_000);
    // A sale above a hundred notes: the amount due and one more note stay plausible (paid exactly, or rounded up).
    expect(cashConfirmThreshold(10_000_000, 'USD', 2)).toBe(10_010_000);
    expect(cashNeedsConfirmation(2_040_000, 2_040_000, 'USD', 2)).toBe(false);
    expect(cashNeedsConfirmation(2_050_001, 2_040_000, 'USD', 2)).toBe(true);
    expect(cashNeedsConfirmation(123_456_789_050_00, 150, 'USD', 2)).toBe(true);
    expect(cashNeedsConfirmation(10_000, 150, 'USD', 2)).toBe(false);
    // TZS has no cents in the till's table here; its largest note is 10,000.
    expect(cashNeedsConfirmation(10_000, 2_500, 'TZS', 0)).toBe(false);
    expect(cashNeedsConfirmation(60_000, 2_500, 'TZS', 0)).toBe(true);
    // A currency not in the table counts 100 major units as its largest note.
    expect(cashConfirmThreshold(100, 'XYZ', 2)).toBe(10_000);
  });
});
