import { describe, expect, it } from 'vitest';
import { localDate } from '@pharmacy/contracts/time';

describe('localDate', () => {
  it('turns at local midnight, also when asked again within the same minute', () => {
    const at = (iso: string) => new Date(iso);
    // Dar es Salaam is UTC+3; Kathmandu UTC+5:45 (midnight falls at a quarter past a UTC hour).
    expect(localDate('Africa/Dar_es_Salaam', at('2026-11-22T20:59:00.000Z'))).toBe('2026-11-22');
    expect(localDate('Africa/Dar_es_Salaam', at('2026-11-22T20:59:59.999Z'))).toBe('2026-11-22');
    expect(localDate('Africa/Dar_es_Salaam', at('2026-11-22T21:00:00.000Z'))).toBe('2026-11-23');
    expect(localDate('Africa/Dar_es_Salaam', at('2026-11-22T20:59:30.000Z'))).toBe('2026-11-22');
    expect(localDate('Asia/Kathmandu', at('2026-11-22T18:14:59.999Z'))).toBe('2026-11-22');
    expect(localDate('Asia/Kathmandu', at('2026-11-22T18:15:00.000Z'))).toBe('2026-11-23');
    expect(localDate('UTC', at('1969-12-31T23:59:59.000Z'))).toBe('1969-12-31');
    expect(localDate('UTC', at('1970-01-01T00:00:00.000Z'))).toBe('1970-01-01');
  });
});
