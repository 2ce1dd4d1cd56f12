import { describe, expect, it } from 'vitest';
import { startOfLocalDay, zoneOffsetMinutes } from '@pharmacy/contracts/time';
import { bucketLocalDate, type ReportWindow } from './window';

const w = (timezone: string, shiftMinutes: number) =>
  ({
    timezone,
    shiftMinutes,
    from: '',
    to: '',
    branchId: undefined,
    startIso: '',
    endIso: '',
  }) as ReportWindow;

describe('report windows in local time', () => {
  it('finds local midnight across daylight-saving changes and fractional offsets', () => {
    expect(startOfLocalDay('2026-03-29', 'Europe/London')).toBe('2026-03-29T00:00:00.000Z');
    expect(startOfLocalDay('2026-03-30', 'Europe/London')).toBe('2026-03-29T23:00:00.000Z');
    expect(startOfLocalDay('2026-06-01', 'Africa/Dar_es_Salaam')).toBe('2026-05-31T21:00:00.000Z');
    expect(startOfLocalDay('2026-06-01', 'Asia/Kathmandu')).toBe('2026-05-31T18:15:00.000Z');
    expect(startOfLocalDay('2026-06-01', 'America/St_Johns')).toBe('2026-06-01T02:30:00.000Z');
    expect(zoneOffsetMinutes('Asia/Kathmandu', Date.parse('2026-06-01T00:00:00Z'))).toBe(345);
  });

  it('maps shifted hour buckets to the right local day', () => {
    // Kathmandu is +5:45: buckets are shifted by 45 minutes so each lies inside one local hour.
    const ktm = w('Asia/Kathmandu', 45);
    expect(bucketLocalDate('2026-05-31T18', ktm)).toBe('2026-05-31'); // 18:00-19:00 shifted = 17:15-18:15 UTC
    expect(bucketLocalDate('2026-05-31T19', ktm)).toBe('2026-06-01'); // 18:15 UTC = 00:00 local
    const dar = w('Africa/Dar_es_Salaam', 0);
    expect(bucketLocalDate('2026-05-31T20', dar)).toBe('2026-05-31');
    expect(bucketLocalDate('2026-05-31T21', dar)).toBe('2026-06-01');
  });
});
