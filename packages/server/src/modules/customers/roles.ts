import type { Role } from '@pharmacy/contracts';

/** Who serves customers at the counter: creates and edits them, takes their payments (admin always may). */
export const CUSTOMER_COUNTER = [
  'branch_manager',
  'pharmacist',
  'cashier',
] as const satisfies readonly Role[];

/** Who grants or changes a customer's credit terms (admin always may). */
export const CREDIT_GRANTERS = ['branch_manager'] as const satisfies readonly Role[];
