import type { Role } from '@pharmacy/contracts';
import { allows, BRANCH_MANAGERS, STOCK_MANAGERS } from '@pharmacy/contracts/roles';

/** As the server's routes: suppliers and invoices are written by the stock managers (admin always), payments by managers. */
export const canWriteSuppliers = (role: Role) => allows(STOCK_MANAGERS, role);
export const canRecordInvoices = (role: Role) => allows(STOCK_MANAGERS, role);
export const canPayInvoices = (role: Role) => allows(BRANCH_MANAGERS, role);
