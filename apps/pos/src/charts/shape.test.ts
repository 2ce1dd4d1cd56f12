import { describe, expect, it } from 'vitest';
import { averageOf, lastDays, monthStart } from '../dashboard/figures';
import { compactNumber, paymentMix, plotValue, rankedBranches, seriesByDay, shortDay } from './shape';

describe('chart data shaping', () => {
  it('puts days oldest first with short labels, zeros kept', () => {
    const s = seriesByDay(
      [
        { date: '2026-11-02', revenue: '10.50' },
        { date: '2026-11-01', revenue: '0.00' },
        { date: '2026-10-31', revenue: '1234.5' },
      ],
      'revenue',
    );
    expect(s.labels).toEqual(['31 Oct', '1 Nov', '2 Nov']);
    expect(s.values).toEqual([1234.5, 0, 10.5]);
  });

  it('ranks branches by rank with code and share in the label', () => {
    const s = rankedBranches([
      { rank: 2, branch_name: 'Kariakoo', branch_code: 'KKO', revenue: '40.00', share_pct: 40 },
      { rank: 1, branch_name: 'Main', branch_code: 'MAIN', revenue: '60.00', share_pct: 60 },
      { rank: 3, branch_name: 'Empty', branch_code: 'EMP', revenue: '0', share_pct: 0 },
    ]);
    expect(s.labels).toEqual(['MAIN 60.0\u00a0%', 'KKO 40.0\u00a0%', 'EMP 0.0\u00a0%']);
    expect(s.values).toEqual([60, 40, 0]);
    expect(s.shares).toEqual([60, 40, 0]);
  });

  it('orders the payment mix by amount with readable method names', () => {
    const s = paymentMix([
      { method: 'card', total: '4.00' },
      { method: 'mobile_money', total: '12.00' },
      { method: 'cash', total: '4.00' },
    ]);
    expect(s.labels).toEqual(['Mobile money', 'Card', 'Cash']);
    expect(s.values).toEqual([12, 4, 4]);
  });

  it('reads unplottable values as zero and compacts axis ticks', () => {
    expect(plotValue(undefined)).toBe(0);
    expect(plotValue('abc')).toBe(0);
    expect(shortDay('not a date')).toBe('not a date');
    expect(compactNumber(1_250_000)).toBe('1.25M');
    expect(compactNumber(3400)).toBe('3.4k');
    expect(compactNumber(12.5)).toBe('12.5');
  });
});

describe('dashboard figures', () => {
  it('averages exactly in minor units, half away from zero', () => {
    expect(averageOf('10.00', 3, 2)).toBe('3.33');
    expect(averageOf('0.05', 2, 2)).toBe('0.03');
    expect(averageOf('1000', 3, 0)).toBe('333');
    expect(averageOf('12.00', 0, 2)).toBe('0.00');
  });

  it('finds the month start and a window of days', () => {
    expect(monthStart('2026-11-25')).toBe('2026-11-01');
    expect(lastDays('2026-03-01', 30)).toEqual({ from_date: '2026-01-31', to_date: '2026-03-01' });
  });
});
