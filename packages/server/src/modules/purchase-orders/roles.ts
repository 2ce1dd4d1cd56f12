import type { Role } from '@pharmacy/contracts';

export const PO_READERS = [
  'branch_manager',
  'inventory_manager',
  'auditor',
] as const satisfies readonly Role[];
/** Who raises an order and moves its status (admin always may). */
export const PO_CREATORS = ['branch_manager'] as const satisfies readonly Role[];
export const PO_RECEIVERS = ['branch_manager', 'inventory_manager'] as const satisfies readonly Role[];
