import type { Role } from '@pharmacy/contracts';
import {
  allows,
  BATCH_RECEIVERS,
  BRANCH_MANAGERS,
  OVERSEERS,
  STOCK_MANAGERS,
  STOCK_READERS,
} from '@pharmacy/contracts/roles';
import type { ComponentType } from 'react';
import { PurchaseOrdersScreen } from '../purchase-orders/PurchaseOrdersScreen';
import { SuppliersScreen } from '../suppliers/SuppliersScreen';
import { TransfersScreen } from '../transfers/TransfersScreen';
import { StockCountsScreen } from '../stock-counts/StockCountsScreen';
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
import { AlertsScreen } from '../alerts/AlertsScreen';
import { MedicinesScreen } from '../medicines/MedicinesScreen';
import { ReceivingScreen } from '../receiving/ReceivingScreen';
import { StockScreen } from '../stock/StockScreen';
import { BooksScreen } from '../headoffice/BooksScreen';
import { HeadOfficeScreen } from '../headoffice/HeadOfficeScreen';
import { PrintersScreen } from '../printers/PrintersScreen';
import { ScannersScreen } from '../scanners/ScannersScreen';

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
  /** The heading the link is listed under in the back office's navigation. */
  group: SectionGroup;
}

export type SectionGroup =
  | 'Overview'
  | 'Inventory'
  | 'Purchasing'
  | 'Selling set-up'
  | 'Hardware and head office'
  | 'Administration';

/** Branch managers run their branch; auditors read everything and change nothing (no write buttons). */

export const SECTIONS: readonly Section[] = [
  // First: a branch manager's (and an auditor's) landing section.
  { path: '/dashboard', group: 'Overview', label: 'Dashboard', roles: OVERSEERS, component: DashboardScreen },
  { path: '/reports', group: 'Overview', label: 'Reports', roles: OVERSEERS, component: ReportsScreen },
  { path: '/approvals', group: 'Overview', label: 'Approvals', roles: OVERSEERS, component: ApprovalsScreen },
  // Inventory (issue 17): reading is open to the back office's roles; the screens hide what the server refuses.
  {
    path: '/medicines',
    group: 'Inventory',
    label: 'Medicines',
    roles: STOCK_READERS,
    component: MedicinesScreen,
  },
  { path: '/stock', group: 'Inventory', label: 'Stock', roles: STOCK_READERS, component: StockScreen },
  // POST /purchases: inventory and branch managers.
  {
    path: '/receiving',
    group: 'Inventory',
    label: 'Receiving',
    roles: STOCK_MANAGERS,
    component: ReceivingScreen,
  },
  { path: '/alerts', group: 'Inventory', label: 'Alerts', roles: STOCK_READERS, component: AlertsScreen },
  // Purchasing: roles as the server's PO readers, transfer movers, count submitters, supplier routes.
  {
    path: '/purchase-orders',
    group: 'Purchasing',
    label: 'Purchase orders',
    roles: STOCK_READERS,
    component: PurchaseOrdersScreen,
  },
  {
    path: '/transfers',
    group: 'Purchasing',
    label: 'Transfers',
    roles: STOCK_READERS,
    component: TransfersScreen,
  },
  // Pharmacists count stock too (POST /stockcount/submit), with a manager's approval for large variances.
  {
    path: '/stock-counts',
    group: 'Purchasing',
    label: 'Stock counts',
    roles: BATCH_RECEIVERS,
    component: StockCountsScreen,
  },
  {
    path: '/suppliers',
    group: 'Purchasing',
    label: 'Suppliers',
    roles: STOCK_READERS,
    component: SuppliersScreen,
  },
  { path: '/coupons', group: 'Selling set-up', label: 'Coupons', roles: OVERSEERS, component: CouponsScreen },
  {
    path: '/currencies',
    group: 'Selling set-up',
    label: 'Currencies',
    roles: OVERSEERS,
    component: CurrenciesScreen,
  },
  {
    path: '/announcements',
    group: 'Selling set-up',
    label: 'Announcements',
    roles: OVERSEERS,
    component: AnnouncementsScreen,
  },
  // Head office only: the tills registered with central (the server lets branch managers see their own).
  {
    path: '/devices',
    group: 'Hardware and head office',
    label: 'Devices',
    roles: BRANCH_MANAGERS,
    component: DevicesScreen,
    mode: 'central',
  },
  // Setting up this till (issue 16).
  {
    path: '/printers',
    group: 'Hardware and head office',
    label: 'Printers',
    roles: BRANCH_MANAGERS,
    component: PrintersScreen,
    mode: 'till',
  },
  {
    path: '/scanners',
    group: 'Hardware and head office',
    label: 'Scanners',
    roles: BRANCH_MANAGERS,
    component: ScannersScreen,
    mode: 'till',
  },
  {
    path: '/head-office',
    group: 'Hardware and head office',
    label: 'Head office',
    roles: BRANCH_MANAGERS,
    component: HeadOfficeScreen,
  },
  {
    path: '/books',
    group: 'Hardware and head office',
    label: 'Books',
    roles: OVERSEERS,
    component: BooksScreen,
  },
  { path: '/users', group: 'Administration', label: 'Users', roles: OVERSEERS, component: UsersScreen },
  {
    path: '/branches',
    group: 'Administration',
    label: 'Branches',
    roles: OVERSEERS,
    component: BranchesScreen,
  },
  {
    path: '/settings',
    group: 'Administration',
    label: 'Settings',
    roles: OVERSEERS,
    component: SettingsScreen,
  },
  { path: '/audit', group: 'Administration', label: 'Audit log', roles: OVERSEERS, component: AuditScreen },
];

/** Where a role lands in the back office when it is not the first section it sees. */
export const LANDING: Partial<Record<Role, string>> = { inventory_manager: '/medicines' };

export function visibleSections(role: Role, mode: 'till' | 'central'): Section[] {
  return SECTIONS.filter((s) => allows(s.roles, role) && (!s.mode || s.mode === mode));
}
