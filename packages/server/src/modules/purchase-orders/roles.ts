import type { Role } from '@pharmacy/contracts';
import { MANAGERS, STOCK_MANAGERS } from '@pharmacy/contracts/roles';

export const PO_READERS = [
  'branch_manager',
  'inventory_manager',
  'auditor',
] as const satisfies readonly Role[];
/** Who raises an order and moves its status (admin always may). */
export const PO_CREATORS = MANAGERS;
export const PO_RECEIVERS = STOCK_MANAGERS;
