import type { ApiRouter } from '../http/route';
import { complianceRoutes } from './compliance/routes';
import { dispensingRoutes } from './dispensing/routes';
import { prescriptionRoutes } from './prescriptions/routes';
import { approvalRoutes } from './approvals/routes';
import { auditRoutes } from './audit/routes';
import { authRoutes } from './auth/routes';
import { branchRoutes } from './branches/routes';
import { announcementRoutes } from './announcements/routes';
import { currencyRoutes } from './currency/routes';
import { dashboardRoutes } from './dashboard/routes';
import { marketingRoutes } from './marketing/routes';
import { printingRoutes } from './printing/routes';
import { sellingRoutes } from './sales/register';
import { scannerRoutes } from './scanners/routes';
import { purchaseOrderRoutes } from './purchase-orders/routes';
import { reportRoutes } from './reports/routes';
import { settingsRoutes } from './settings/routes';
import { supplierFinanceRoutes } from './supplier-finance/routes';
import { catalogueRoutes } from './stock/routes';
import { syncRoutes } from './sync/routes';
import { userRoutes } from './users/routes';

/** Every feature area of /api/v1, one line each. */
export function registerModules(r: ApiRouter): void {
  authRoutes(r);
  userRoutes(r);
  branchRoutes(r);
  currencyRoutes(r);
  settingsRoutes(r);
  auditRoutes(r);
  marketingRoutes(r);
  catalogueRoutes(r);
  syncRoutes(r);
  purchaseOrderRoutes(r);
  supplierFinanceRoutes(r);
  approvalRoutes(r);
  announcementRoutes(r);
  reportRoutes(r);
  dashboardRoutes(r);
  printingRoutes(r);
  scannerRoutes(r);
  prescriptionRoutes(r);
  dispensingRoutes(r);
  complianceRoutes(r);
  sellingRoutes(r);
}
