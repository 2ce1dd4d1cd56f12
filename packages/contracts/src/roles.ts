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

const ROLE_WORDS: Record<Role, string> = {
  admin: 'admin',
  pharmacist: 'pharmacist',
  cashier: 'cashier',
  branch_manager: 'branch manager',
  inventory_manager: 'inventory manager',
  auditor: 'auditor',
};

/**
 * Who may do something, in words, from a named set: whoCan(CREDIT_GRANTERS, 'change credit terms') is
 * "Only a branch manager or admin can change credit terms" (admin always may, so it ends the list).
 */
export function whoCan(roles: readonly Role[], action: string): string {
  const words = [...roles.filter((r) => r !== 'admin'), 'admin' as const].map((r) => ROLE_WORDS[r]);
  const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
  const article = /^[aeiou]/.test(list ?? '') ? 'an' : 'a';
  return `Only ${article} ${list} can ${action}`;
}
