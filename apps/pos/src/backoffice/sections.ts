import type { Role } from '@pharmacy/contracts';
import type { ComponentType } from 'react';
import { PurchaseOrdersScreen } from '../purchase-orders/PurchaseOrdersScreen';
import { SuppliersScreen } from '../suppliers/SuppliersScreen';
import { TransfersScreen } from '../transfers/TransfersScreen';
import { StockCountsScreen } from '../stock-counts/StockCountsScreen';
import { AuditScreen } from './AuditScreen';
import { BranchesScreen } from './BranchesScreen';
import { SettingsScreen } from './SettingsScreen';
import { UsersScreen } from './UsersScreen';
import { AlertsScreen } from '../alerts/AlertsScreen';
import { MedicinesScreen } from '../medicines/MedicinesScreen';
import { ReceivingScreen } from '../receiving/ReceivingScreen';
import { StockScreen } from '../stock/StockScreen';
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
}

const INVENTORY_READERS: readonly Role[] = ['inventory_manager', 'branch_manager', 'auditor'];

export const SECTIONS: readonly Section[] = [
  { path: '/users', label: 'Users', roles: ['branch_manager', 'auditor'], component: UsersScreen },
  { path: '/branches', label: 'Branches', roles: ['branch_manager', 'auditor'], component: BranchesScreen },
  { path: '/settings', label: 'Settings', roles: ['branch_manager', 'auditor'], component: SettingsScreen },
  { path: '/audit', label: 'Audit log', roles: ['branch_manager', 'auditor'], component: AuditScreen },
  // Inventory (issue 17): reading is open to the back office's roles; the screens hide what the server refuses.
  { path: '/medicines', label: 'Medicines', roles: INVENTORY_READERS, component: MedicinesScreen },
  { path: '/stock', label: 'Stock', roles: INVENTORY_READERS, component: StockScreen },
  // POST /purchases: inventory and branch managers (pharmacists too, but they have no back office).
  {
    path: '/receiving',
    label: 'Receiving',
    roles: ['inventory_manager', 'branch_manager'],
    component: ReceivingScreen,
  },
  { path: '/alerts', label: 'Alerts', roles: INVENTORY_READERS, component: AlertsScreen },
  // Purchasing (issue 17): roles as the server's PO_READERS, transfer movers, count submitters, supplier routes.
  {
    path: '/purchase-orders',
    label: 'Purchase orders',
    roles: ['branch_manager', 'inventory_manager', 'auditor'],
    component: PurchaseOrdersScreen,
  },
  {
    path: '/transfers',
    label: 'Transfers',
    roles: ['branch_manager', 'inventory_manager', 'auditor'],
    component: TransfersScreen,
  },
  {
    // Pharmacists count stock too (POST /stockcount/submit), with a manager's approval for large variances.
    path: '/stock-counts',
    label: 'Stock counts',
    roles: ['branch_manager', 'inventory_manager', 'pharmacist'],
    component: StockCountsScreen,
  },
  {
    path: '/suppliers',
    label: 'Suppliers',
    roles: ['branch_manager', 'inventory_manager', 'auditor'],
    component: SuppliersScreen,
  },
  {
    path: '/printers',
    label: 'Printers',
    roles: ['branch_manager'],
    component: PrintersScreen,
    mode: 'till',
  },
  {
    path: '/scanners',
    label: 'Scanners',
    roles: ['branch_manager'],
    component: ScannersScreen,
    mode: 'till',
  },
  { path: '/head-office', label: 'Head office', roles: ['branch_manager'], component: HeadOfficeScreen },
];

/** Where a role lands in the back office when it is not the first section it sees. */
export const LANDING: Partial<Record<Role, string>> = { inventory_manager: '/medicines' };

export function visibleSections(role: Role, mode: 'till' | 'central'): Section[] {
  return SECTIONS.filter((s) => (role === 'admin' || s.roles.includes(role)) && (!s.mode || s.mode === mode));
}
