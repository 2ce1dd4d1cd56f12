import { describe, expect, it } from 'vitest';
import { safeNext } from './next-path';

describe('safeNext', () => {
  it('returns to the place inside the till', () => {
    expect(safeNext('/back-office/audit', 'admin')).toBe('/back-office/audit');
    expect(safeNext('/back-office/users?search=ann', 'admin')).toBe('/back-office/users?search=ann');
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
      expect(safeNext(bad, 'cashier')).toBe('/sell');
    }
  });
  it('lands each role on its own home, never on a screen it may not use (issue 29)', () => {
    expect(safeNext(null, 'inventory_manager')).toBe('/back-office/medicines');
    expect(safeNext('/sell', 'inventory_manager')).toBe('/back-office/medicines');
    expect(safeNext('/cash', 'auditor')).toBe('/back-office');
    expect(safeNext(null, 'branch_manager')).toBe('/sell');
    expect(safeNext('/back-office', 'cashier')).toBe('/sell');
    expect(safeNext('/customers', 'inventory_manager')).toBe('/customers');
  });
});
