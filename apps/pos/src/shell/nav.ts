import type { Role } from '@pharmacy/contracts';

export interface NavItem {
  path: string;
  label: string;
  /** The F-key that opens it from anywhere in the till. */
  key: string;
  /** Who sees it; undefined is everyone signed in. */
  roles?: readonly Role[];
}

/** Pharmacists reach the back office for stock counts only (sections.ts decides what each role sees). */
export const BACK_OFFICE_ROLES: readonly Role[] = [
  'admin',
  'branch_manager',
  'inventory_manager',
  'auditor',
  'pharmacist',
];

export const NAV: readonly NavItem[] = [
  { path: '/sell', label: 'Sell', key: 'F1' },
  { path: '/returns', label: 'Returns', key: 'F2' },
  { path: '/customers', label: 'Customers', key: 'F3' },
  { path: '/prescriptions', label: 'Prescriptions', key: 'F4' },
  { path: '/cash', label: 'Cash session', key: 'F6' },
  { path: '/back-office', label: 'Back office', key: 'F9', roles: BACK_OFFICE_ROLES },
];

export function visibleNav(role: Role): NavItem[] {
  return NAV.filter((item) => !item.roles || role === 'admin' || item.roles.includes(role));
}
