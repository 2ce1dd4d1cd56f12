import type { Role } from '@pharmacy/contracts';
import { BACK_OFFICE_USERS, maySell, SELLERS } from '@pharmacy/contracts/roles';

export interface NavItem {
  path: string;
  label: string;
  /** The word shown where the whole label does not fit in one row (a 1024-pixel counter screen). */
  short: string;
  /** The F-key that opens it from anywhere in the till. */
  key: string;
  /** Who sees it; undefined is everyone signed in. */
  roles?: readonly Role[];
}

/** The till's screens; selling, returns and the cash drawer only for those who sell (the server's rule). */
export const NAV: readonly NavItem[] = [
  { path: '/sell', label: 'Sell', short: 'Sell', key: 'F1', roles: SELLERS },
  { path: '/returns', label: 'Returns', short: 'Returns', key: 'F2', roles: SELLERS },
  { path: '/customers', label: 'Customers', short: 'Customers', key: 'F3' },
  { path: '/prescriptions', label: 'Prescriptions', short: 'Rx', key: 'F4' },
  { path: '/cash', label: 'Cash session', short: 'Cash', key: 'F6', roles: SELLERS },
  { path: '/back-office', label: 'Back office', short: 'Office', key: 'F9', roles: BACK_OFFICE_USERS },
];

export function visibleNav(role: Role): NavItem[] {
  return NAV.filter((item) => !item.roles || role === 'admin' || item.roles.includes(role));
}

/**
 * Where a person lands after signing in: the counter for those who sell, their own work for the others (an
 * inventory manager the medicines, an auditor the dashboard).
 */
export function homePath(role: Role): string {
  if (maySell(role)) return '/sell';
  if (role === 'inventory_manager') return '/back-office/medicines';
  return '/back-office';
}

/** Whether a till path is one of the screens this role may open (the back office decides its own sections). */
export function mayOpen(role: Role, path: string): boolean {
  const item = NAV.find((i) => path === i.path || path.startsWith(`${i.path}/`));
  return !item || visibleNav(role).includes(item);
}
