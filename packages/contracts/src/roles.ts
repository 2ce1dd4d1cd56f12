import type { Role } from './common';

/**
 * Named sets of roles, shared by the server's routes and the UI (zod-free, so the UI bundle stays small).
 * Admin passes every role check on its own and is not listed.
 */

/** Who serves customers at the counter: creates and edits them, takes their payments (admin always may). */
export const CUSTOMER_COUNTER = [
  'branch_manager',
  'pharmacist',
  'cashier',
] as const satisfies readonly Role[];

/** Who grants or changes a customer's credit terms (admin always may). */
export const CREDIT_GRANTERS = ['branch_manager'] as const satisfies readonly Role[];

export const mayChangeCreditTerms = (role: Role): boolean =>
  role === 'admin' || (CREDIT_GRANTERS as readonly Role[]).includes(role);

/** Who sells at the counter, takes returns and runs a cash session (admin always may). */
export const SELLERS = ['cashier', 'pharmacist', 'branch_manager'] as const satisfies readonly Role[];

export const maySell = (role: Role): boolean =>
  role === 'admin' || (SELLERS as readonly Role[]).includes(role);
