import { describe, expect, it } from 'vitest';
import { visibleSections } from './sections';

const purchasing = ['Purchase orders', 'Transfers', 'Stock counts', 'Suppliers'];
const labels = (role: Parameters<typeof visibleSections>[0]) =>
  visibleSections(role, 'till')
    .map((s) => s.label)
    .filter((l) => purchasing.includes(l));

describe('purchasing sections by role (as the server routes allow)', () => {
  it('shows a cashier none of them and a pharmacist stock counts only', () => {
    expect(labels('cashier')).toEqual([]);
    expect(visibleSections('pharmacist', 'till').map((s) => s.label)).toEqual(['Stock counts']);
  });

  it('shows managers all four, an auditor what it may read (it cannot submit a count)', () => {
    expect(labels('branch_manager')).toEqual(['Purchase orders', 'Transfers', 'Stock counts', 'Suppliers']);
    expect(labels('inventory_manager')).toEqual([
      'Purchase orders',
      'Transfers',
      'Stock counts',
      'Suppliers',
    ]);
    expect(labels('admin')).toEqual(['Purchase orders', 'Transfers', 'Stock counts', 'Suppliers']);
    expect(labels('auditor')).toEqual(['Purchase orders', 'Transfers', 'Suppliers']);
  });

  it('lands a manager, an auditor and an admin on the Dashboard; devices only on central, set-up only on a till', () => {
    expect(visibleSections('admin', 'till')[0]?.label).toBe('Dashboard');
    expect(visibleSections('auditor', 'till')[0]?.label).toBe('Dashboard');
    const till = visibleSections('admin', 'till').map((s) => s.label);
    const central = visibleSections('admin', 'central').map((s) => s.label);
    expect(till).toContain('Printers');
    expect(till).not.toContain('Devices');
    expect(central).toContain('Devices');
    expect(central).not.toContain('Printers');
  });
});
