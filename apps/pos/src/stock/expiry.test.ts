import { describe, expect, it } from 'vitest';
import { localDate as todayIn } from '@pharmacy/contracts/time';
import { daysUntil, expiryLevel } from './expiry';

describe('expiryLevel', () => {
  const today = '2026-03-01';
  it('is expired only from the day after the expiry date', () => {
    expect(expiryLevel('2026-03-01', today)).toBe('within-30');
    expect(expiryLevel('2026-02-28', today)).toBe('expired');
    expect(expiryLevel('2020-01-01', today)).toBe('expired');
  });
  it('bands 30 and 90 days inclusive, across month ends and a leap year', () => {
    expect(expiryLevel('2026-03-31', today)).toBe('within-30'); // 30 days
    expect(expiryLevel('2026-04-01', today)).toBe('within-90'); // 31 days
    expect(expiryLevel('2026-05-30', today)).toBe('within-90'); // 90 days
    expect(expiryLevel('2026-05-31', today)).toBe('ok'); // 91 days
    expect(daysUntil('2028-03-01', '2028-02-28')).toBe(2);
  });
  it('counts today in the branch time zone', () => {
    const lateUtc = new Date('2026-03-01T23:30:00Z');
    expect(todayIn('UTC', lateUtc)).toBe('2026-03-01');
    expect(todayIn('Africa/Nairobi', lateUtc)).toBe('2026-03-02');
    expect(todayIn('Not/AZone', lateUtc)).toBe('2026-03-01');
  });
});
