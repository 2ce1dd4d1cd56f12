import type { Role } from '@pharmacy/contracts';

/** As the server's routes: suppliers and invoices are written by these (admin always), payments by managers. */
const SUPPLIER_WRITERS: readonly Role[] = ['admin', 'branch_manager', 'inventory_manager'];
const PAYERS: readonly Role[] = ['admin', 'branch_manager'];

export const canWriteSuppliers = (role: Role) => SUPPLIER_WRITERS.includes(role);
export const canRecordInvoices = (role: Role) => SUPPLIER_WRITERS.includes(role);
export const canPayInvoices = (role: Role) => PAYERS.includes(role);
