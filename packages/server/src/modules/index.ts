import type { ApiRouter } from '../http/route';
import { alertRoutes } from './alerts/routes';
import { announcementRoutes } from './announcements/routes';
import { announcementsEntities } from './announcements/sync';
import { approvalRoutes } from './approvals/routes';
import { approvalsEntities } from './approvals/sync';
import type { Area } from './area';
import { auditRoutes } from './audit/routes';
import { authRoutes } from './auth/routes';
import { booksRoutes } from './books/routes';
import { branchRoutes } from './branches/routes';
import { branchesEntities } from './branches/sync';
import { categoryRoutes } from './categories/routes';
import { categoriesEntities } from './categories/sync';
import { complianceRoutes } from './compliance/routes';
import { couponRoutes } from './coupons/routes';
import { couponsEntities } from './coupons/sync';
import { currencyRoutes } from './currency/routes';
import { currencyEntities } from './currency/sync';
import { customerRoutes } from './customers/routes';
import { customersEntities } from './customers/sync';
import { dashboardRoutes } from './dashboard/routes';
import { dispensingRoutes } from './dispensing/routes';
import { imageRoutes } from './images/routes';
import { imagesEntities } from './images/sync';
import { marketingRoutes } from './marketing/routes';
import { medicineRoutes } from './medicines/routes';
import { medicinesEntities } from './medicines/sync';
import { parkedRoutes } from './parked/routes';
import { parkedEntities } from './parked/sync';
import { prescriptionRoutes } from './prescriptions/routes';
import { prescriptionsEntities } from './prescriptions/sync';
import { shelfLabelSource } from './printing/label-source';
import { printingRoutes } from './printing/routes';
import { registerDocumentSource } from './printing/sources';
import { purchaseOrderRoutes } from './purchase-orders/routes';
import { purchaseOrdersEntities } from './purchase-orders/sync';
import { batchRoutes } from './batches/routes';
import { reportRoutes } from './reports/routes';
import { creditNoteSource } from './returns/documents';
import { returnRoutes } from './returns/routes';
import { returnsEntities } from './returns/sync';
import { saleReceiptSource } from './sales/documents';
import { saleRoutes } from './sales/routes';
import { salesEntities } from './sales/sync';
import { scannerRoutes } from './scanners/routes';
import { zReportSource } from './sessions/documents';
import { sessionRoutes } from './sessions/routes';
import { sessionsEntities } from './sessions/sync';
import { settingsRoutes } from './settings/routes';
import { settingsEntities } from './settings/sync';
import { stockEntities } from './stock/sync';
import { stockCountRoutes } from './stock-counts/routes';
import { stockCountsEntities } from './stock-counts/sync';
import { supplierFinanceRoutes } from './supplier-finance/routes';
import { supplierFinanceEntities } from './supplier-finance/sync';
import { supplierRoutes } from './suppliers/routes';
import { suppliersEntities } from './suppliers/sync';
import { bindRestAccess, registerEntity } from './sync/registry';
import { divertCentralWrites } from './sync/central-writes';
import { syncRoutes } from './sync/routes';
import { transferRoutes } from './transfers/routes';
import { transfersEntities } from './transfers/sync';
import { userRoutes } from './users/routes';
import { usersEntities } from './users/sync';

/** Every feature area of /api/v1, one line each (routes register in this order). */
export const AREAS: readonly Area[] = [
  { name: 'auth', routes: authRoutes },
  { name: 'users', routes: userRoutes, entities: usersEntities },
  { name: 'branches', routes: branchRoutes, entities: branchesEntities },
  { name: 'currency', routes: currencyRoutes, entities: currencyEntities },
  { name: 'settings', routes: settingsRoutes, entities: settingsEntities },
  { name: 'audit', routes: auditRoutes },
  { name: 'marketing', routes: marketingRoutes },
  { name: 'categories', routes: categoryRoutes, entities: categoriesEntities },
  { name: 'medicines', routes: medicineRoutes, entities: medicinesEntities },
  { name: 'suppliers', routes: supplierRoutes, entities: suppliersEntities },
  { name: 'batches', routes: batchRoutes },
  { name: 'stock', entities: stockEntities },
  { name: 'transfers', routes: transferRoutes, entities: transfersEntities },
  { name: 'stock-counts', routes: stockCountRoutes, entities: stockCountsEntities },
  { name: 'alerts', routes: alertRoutes },
  { name: 'images', routes: imageRoutes, entities: imagesEntities },
  { name: 'sync', routes: syncRoutes },
  { name: 'books', routes: booksRoutes },
  { name: 'purchase-orders', routes: purchaseOrderRoutes, entities: purchaseOrdersEntities },
  { name: 'supplier-finance', routes: supplierFinanceRoutes, entities: supplierFinanceEntities },
  { name: 'approvals', routes: approvalRoutes, entities: approvalsEntities },
  { name: 'announcements', routes: announcementRoutes, entities: announcementsEntities },
  { name: 'reports', routes: reportRoutes },
  { name: 'dashboard', routes: dashboardRoutes },
  { name: 'printing', routes: printingRoutes, documents: { label: shelfLabelSource } },
  { name: 'scanners', routes: scannerRoutes },
  { name: 'prescriptions', routes: prescriptionRoutes, entities: prescriptionsEntities },
  { name: 'dispensing', routes: dispensingRoutes },
  { name: 'compliance', routes: complianceRoutes },
  {
    name: 'sessions',
    routes: sessionRoutes,
    entities: sessionsEntities,
    documents: { report: zReportSource },
  },
  {
    name: 'sales',
    routes: saleRoutes,
    entities: salesEntities,
    documents: { receipt: saleReceiptSource, invoice: saleReceiptSource },
  },
  {
    name: 'returns',
    routes: returnRoutes,
    entities: returnsEntities,
    documents: { credit_note: creditNoteSource },
  },
  { name: 'parked', routes: parkedRoutes, entities: parkedEntities },
  { name: 'coupons', routes: couponRoutes, entities: couponsEntities },
  { name: 'customers', routes: customerRoutes, entities: customersEntities },
];

/**
 * Registers every area's replicated entities and printable documents (idempotent: a registration
 * replaces its own earlier one, so each server a test process starts registers the same set).
 */
export function registerAreaParts(): void {
  for (const area of AREAS) {
    for (const entity of area.entities ?? []) registerEntity(entity);
    for (const [type, source] of Object.entries(area.documents ?? {}))
      registerDocumentSource(type as keyof NonNullable<Area['documents']>, source);
  }
}

export function registerModules(r: ApiRouter): void {
  registerAreaParts();
  for (const area of AREAS) area.routes?.(r);
  bindRestAccess(r.docs);
  divertCentralWrites(r);
}
