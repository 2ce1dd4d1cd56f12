/**
 * Named sets of roles, shared by the server's routes and the UI (zod-free, so the UI bundle stays small).
 * Admin passes every role check on its own and is not listed (but in PHARMACIST_ROLES, read with includes).
 */

/** Every role there is; common.ts makes the zod enum `Role` of it. */
export const ROLES = [
  'admin',
  'pharmacist',
  'cashier',
  'branch_manager',
  'inventory_manager',
  'auditor',
] as const;
type Role = (typeof ROLES)[number];

/**
 * Pharmacist and above: who sells controlled medicines, makes an emergency supply of a prescription-only one,
 * and witnesses a controlled medicine's count discrepancy. Admin is listed: callers ask `includes`.
 */
export const PHARMACIST_ROLES: readonly Role[] = ['admin', 'pharmacist'];

/** Roles that belong to one branch and only ever see that branch. */
export const BRANCH_BOUND_ROLES: readonly Role[] = ['cashier', 'pharmacist', 'branch_manager'];

/**
 * Who reads every branch's records and chooses which branch to look at (approvals, reports, books, users, the
 * dashboard): the auditor (admin always may). Everyone else sees their own branch or their own requests.
 */
export const ORGANISATION_READERS = ['auditor'] as const satisfies readonly Role[];

/** Who serves customers at the counter: creates and edits them, takes their payments (admin always may). */
export const CUSTOMER_COUNTER = [
  'branch_manager',
  'pharmacist',
  'cashier',
] as const satisfies readonly Role[];

/** The branch's manager alone: settings of the branch, printers, devices, decisions (admin always may). */
export const BRANCH_MANAGERS = ['branch_manager'] as const satisfies readonly Role[];

/** Who keeps the stock: suppliers, deliveries, transfers, counts above the threshold (admin always may). */
export const STOCK_MANAGERS = ['branch_manager', 'inventory_manager'] as const satisfies readonly Role[];

/** Who reads the records others keep: the audit log, users, reports, conflicts (admin always may). */
export const OVERSEERS = ['branch_manager', 'auditor'] as const satisfies readonly Role[];

/** Every role but the auditor, who only reads: asks approvals, queues print jobs, counts stock. */
export const WORKING_STAFF = [
  'cashier',
  'pharmacist',
  'branch_manager',
  'inventory_manager',
] as const satisfies readonly Role[];

/** Every signed-in role (admin passes every check on its own). */
export const ALL_STAFF = [...WORKING_STAFF, 'auditor'] as const satisfies readonly Role[];

/** Whether a stock count's large variances pass without an approval: the stock managers' (and admin's) count. */
export const mayApproveCount = (role: Role): boolean =>
  role === 'admin' || (STOCK_MANAGERS as readonly Role[]).includes(role);

/** Admin alone: organisation-wide settings, currencies, branches, users' roles. */
export const ADMIN_ONLY = ['admin'] as const satisfies readonly Role[];

/** Who edits the catalogue: medicines, categories, images (admin always may). */
export const CATALOGUE_EDITORS = ['inventory_manager'] as const satisfies readonly Role[];

/** Who reads stock, orders and supplier accounts without keeping them: the stock managers and the auditor. */
export const STOCK_READERS = [...STOCK_MANAGERS, 'auditor'] as const satisfies readonly Role[];

/** Who receives a delivery into a branch (admin always may): pharmacists too, in small branches. */
export const BATCH_RECEIVERS = [
  'inventory_manager',
  'branch_manager',
  'pharmacist',
] as const satisfies readonly Role[];

/** Who reads the controlled-medicine and prescription books (admin always may). */
export const BOOK_READERS = ['pharmacist', 'branch_manager', 'auditor'] as const satisfies readonly Role[];

/**
 * Who registers and dispenses prescriptions: prepares them for the will-call shelf, puts them on it and
 * returns an uncollected bag to stock (admin always may).
 */
export const DISPENSERS = ['pharmacist'] as const satisfies readonly Role[];

/** Who cancels a prescription: the pharmacist or the branch's manager (admin always may). */
export const PRESCRIPTION_CANCELLERS = ['pharmacist', 'branch_manager'] as const satisfies readonly Role[];

/**
 * Who hands a will-call bag over at the counter: the pharmacist or the cashier (admin always may). The route
 * that recorded it answers 409 since a pickup became a sale; the set documents who it was for.
 */
export const WILL_CALL_HANDLERS = ['pharmacist', 'cashier'] as const satisfies readonly Role[];

/** Who reads the controlled-drugs registry: the book readers and the inventory manager (cashiers do not). */
export const CONTROLLED_REGISTRY_READERS = [
  ...BOOK_READERS,
  'inventory_manager',
] as const satisfies readonly Role[];

/** Who may ask for an approval (every role but auditor; admin always may). */
export const APPROVAL_REQUESTERS = WORKING_STAFF;

/** Who may decide one: a branch manager of the approval's branch (admin always may). */
export const APPROVAL_DECIDERS = BRANCH_MANAGERS;

/** Who queues, reprints and cancels print jobs: everyone who works at a till; the auditor only reads (issue 26 L5). */
export const PRINT_JOB_ROLES = WORKING_STAFF;

/**
 * Whose bearer token may push a till's changes (besides a device credential): every role that works at a till.
 * The gate holds a person to what their role may do through REST and to their own name in every *_by field.
 */
export const SYNC_PUSHERS = WORKING_STAFF;

/** Whether a role passes a check for `set`: admin always does. */
export const allows = (set: readonly Role[], role: Role): boolean => role === 'admin' || set.includes(role);

/** The roles a branch manager may give, and whose accounts they may unlock, in their own branch. */
export const MANAGER_GRANTS = ['cashier', 'pharmacist'] as const satisfies readonly Role[];

/** Who grants or changes a customer's credit terms (admin always may). */
export const CREDIT_GRANTERS = ['branch_manager'] as const satisfies readonly Role[];

export const mayChangeCreditTerms = (role: Role): boolean =>
  role === 'admin' || (CREDIT_GRANTERS as readonly Role[]).includes(role);

/** Who sells at the counter, takes returns and runs a cash session (admin always may). */
export const SELLERS = ['cashier', 'pharmacist', 'branch_manager'] as const satisfies readonly Role[];

export const maySell = (role: Role): boolean =>
  role === 'admin' || (SELLERS as readonly Role[]).includes(role);

/**
 * Who sees a sale's fiscal-authority payload: those who sell and the auditor. Inventory managers do not: the
 * payload carries prices and customers (admin always may).
 */
export const FISCAL_READERS = [...SELLERS, 'auditor'] as const satisfies readonly Role[];

/**
 * Who opens the back office (sections.ts decides what each role sees there): everyone but the cashier;
 * pharmacists for stock counts only (admin always may).
 */
export const BACK_OFFICE_USERS = [
  'branch_manager',
  'inventory_manager',
  'auditor',
  'pharmacist',
] as const satisfies readonly Role[];

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
 * "Only a branch manager or an admin can change credit terms" (admin always may, so it ends the list).
 */
export function whoCan(roles: readonly Role[], action: string): string {
  const words = [...roles.filter((r) => r !== 'admin'), 'admin' as const].map((r) => {
    const word = ROLE_WORDS[r];
    return `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
  });
  const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
  return `Only ${list} can ${action}`;
}
