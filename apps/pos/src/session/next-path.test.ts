import { describe, expect, it } from 'vitest';
import { safeNext } from './next-path';

describe('safeNext', () => {
  it('returns to the place inside the till', () => {
    expect(safeNext('/back-office/audit')).toBe('/back-office/audit');
    expect(safeNext('/back-office/users?search=ann')).toBe('/back-office/users?search=ann');
  });
  it('never leaves the till or loops to the login page', () => {
    for (const bad of [
      null,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/login?next=/x',
    ]) {
      expect(safeNext(bad)).toBe('/sell');
    }
  });
});
