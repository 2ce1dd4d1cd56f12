import type { Role } from '@pharmacy/contracts';
import type { ComponentType } from 'react';
import { AnnouncementsScreen } from '../announcements/AnnouncementsScreen';
import { ApprovalsScreen } from '../approvals/ApprovalsScreen';
import { CouponsScreen } from '../coupons/CouponsScreen';
import { CurrenciesScreen } from '../currencies/CurrenciesScreen';
import { DashboardScreen } from '../dashboard/DashboardScreen';
import { DevicesScreen } from '../devices/DevicesScreen';
import { ReportsScreen } from '../reports/ReportsScreen';
import { AuditScreen } from './AuditScreen';
import { BranchesScreen } from './BranchesScreen';
import { SettingsScreen } from './SettingsScreen';
import { UsersScreen } from './UsersScreen';

/**
 * One back-office section: its link, its page, and who sees it. Roles mirror the server's route
 * roles (the server still decides); admin sees every section. A section's page lives in its own
 * area folder (apps/pos/src/<area>/) and is listed here, one line each, in navigation order.
 */
export interface Section {
  /** Relative to /back-office; a section may nest its own routes under it. */
  path: string;
  /** The link text and the page's heading. */
  label: string;
  roles: readonly Role[];
  component: ComponentType;
  /** Shown only on a till, or only on central; undefined is both. */
  mode?: 'till' | 'central';
}

/** Branch managers run their branch; auditors read everything and change nothing (no write buttons). */
const MANAGERS: readonly Role[] = ['branch_manager', 'auditor'];

export const SECTIONS: readonly Section[] = [
  // First: a branch manager's (and an auditor's) landing section.
  { path: '/dashboard', label: 'Dashboard', roles: MANAGERS, component: DashboardScreen },
  { path: '/reports', label: 'Reports', roles: MANAGERS, component: ReportsScreen },
  { path: '/approvals', label: 'Approvals', roles: MANAGERS, component: ApprovalsScreen },
  { path: '/coupons', label: 'Coupons', roles: MANAGERS, component: CouponsScreen },
  { path: '/currencies', label: 'Currencies', roles: MANAGERS, component: CurrenciesScreen },
  { path: '/announcements', label: 'Announcements', roles: MANAGERS, component: AnnouncementsScreen },
  // Head office only: the tills registered with central (the server lets branch managers see their own).
  {
    path: '/devices',
    label: 'Devices',
    roles: ['branch_manager'],
    component: DevicesScreen,
    mode: 'central',
  },
  { path: '/users', label: 'Users', roles: MANAGERS, component: UsersScreen },
  { path: '/branches', label: 'Branches', roles: MANAGERS, component: BranchesScreen },
  { path: '/settings', label: 'Settings', roles: MANAGERS, component: SettingsScreen },
  { path: '/audit', label: 'Audit log', roles: MANAGERS, component: AuditScreen },
];

export function visibleSections(role: Role, mode: 'till' | 'central'): Section[] {
  return SECTIONS.filter((s) => (role === 'admin' || s.roles.includes(role)) && (!s.mode || s.mode === mode));
}
