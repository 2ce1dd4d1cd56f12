import { type AuthzRow, anyRole, only } from '../testing/authz';

const CATALOGUE = ['inventory_manager'] as const;
const SUPPLIER_WRITERS = ['inventory_manager', 'branch_manager'] as const;
const RECEIVERS = ['inventory_manager', 'branch_manager', 'pharmacist'] as const;
const STOCK_MANAGERS = ['inventory_manager', 'branch_manager'] as const;
const COUNTERS = ['pharmacist', 'cashier', 'branch_manager', 'inventory_manager'] as const;
const REGISTRY = ['pharmacist', 'branch_manager', 'inventory_manager', 'auditor'] as const;

/** Catalogue and stock routes (categories, medicines, suppliers, purchases, transfers, counts, alerts, images). */
export const catalogueAuthz: AuthzRow[] = [
  { method: 'GET', path: '/categories', expect: anyRole(200) },
  { method: 'POST', path: '/categories', body: {}, expect: only(CATALOGUE, 400) },
  { method: 'PUT', path: '/categories/{slug}', body: { name: 'X' }, expect: only(CATALOGUE, 404) },
  { method: 'DELETE', path: '/categories/{slug}', expect: only(CATALOGUE, 404) },

  { method: 'GET', path: '/medicines', expect: anyRole(200) },
  { method: 'POST', path: '/medicines', body: {}, expect: only(CATALOGUE, 400) },
  { method: 'GET', path: '/medicines/barcode/{code}', expect: anyRole(404) },
  { method: 'GET', path: '/medicines/controlled/registry', expect: only(REGISTRY, 200) },
  { method: 'GET', path: '/medicines/{medicineId}', expect: anyRole(404) },
  { method: 'PUT', path: '/medicines/{medicineId}', body: { name: 'X' }, expect: only(CATALOGUE, 404) },
  { method: 'DELETE', path: '/medicines/{medicineId}', expect: only(CATALOGUE, 404) },
  { method: 'GET', path: '/medicines/{medicineId}/movements', expect: anyRole(404) },

  { method: 'GET', path: '/suppliers', expect: anyRole(200) },
  { method: 'POST', path: '/suppliers', body: {}, expect: only(SUPPLIER_WRITERS, 400) },
  { method: 'GET', path: '/suppliers/{supplierId}', expect: anyRole(404) },
  {
    method: 'PUT',
    path: '/suppliers/{supplierId}',
    body: { name: 'X' },
    expect: only(SUPPLIER_WRITERS, 404),
  },
  { method: 'DELETE', path: '/suppliers/{supplierId}', expect: only(SUPPLIER_WRITERS, 404) },

  { method: 'GET', path: '/purchases', expect: anyRole(200) },
  { method: 'POST', path: '/purchases', body: {}, expect: only(RECEIVERS, 400) },
  { method: 'GET', path: '/purchases/expiring', expect: anyRole(200) },
  { method: 'GET', path: '/purchases/movements/all', expect: anyRole(200) },
  { method: 'GET', path: '/purchases/{batchId}', expect: anyRole(404) },
  {
    method: 'PUT',
    path: '/purchases/{batchId}/write-off',
    body: { quantity: 1, reason: 'damaged' },
    expect: only(STOCK_MANAGERS, 404),
  },

  { method: 'GET', path: '/transfers', expect: anyRole(200) },
  { method: 'POST', path: '/transfers', body: {}, expect: only(STOCK_MANAGERS, 400) },
  { method: 'POST', path: '/transfers/batch', body: {}, expect: only(STOCK_MANAGERS, 400) },

  { method: 'GET', path: '/stockcount', expect: anyRole(200) },
  { method: 'POST', path: '/stockcount/submit', body: {}, expect: only(COUNTERS, 400) },

  { method: 'GET', path: '/alerts/low-stock', expect: anyRole(200) },
  { method: 'GET', path: '/alerts/expiry', expect: anyRole(200) },
  { method: 'GET', path: '/alerts/expired', expect: anyRole(200) },

  { method: 'POST', path: '/images/medicines/upload-url', body: {}, expect: only(STOCK_MANAGERS, 400) },
  {
    method: 'POST',
    path: '/images/medicines/{medicineId}/image',
    body: {},
    expect: only(STOCK_MANAGERS, 400),
  },
  { method: 'POST', path: '/images/branding/upload-url', body: {}, expect: only([], 400) },
  { method: 'PUT', path: '/images/branding/logo', body: {}, expect: only([], 400) },
  { method: 'GET', path: '/images/branding/logo', expect: anyRole(200) },
  // Signed-URL blob endpoints: public, the signature authorises; a malformed path is 400 for everybody.
  { method: 'PUT', path: '/images/blob/{prefix}/{file}', expect: { ...anyRole(400), anonymous: 400 } },
  { method: 'GET', path: '/images/blob/{prefix}/{file}', expect: { ...anyRole(400), anonymous: 400 } },
];
