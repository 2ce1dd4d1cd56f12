import type { Role } from '@pharmacy/contracts';

/** Who may ask for an approval (every role but auditor; admin always may). */
export const APPROVAL_REQUESTERS = [
  'pharmacist',
  'cashier',
  'branch_manager',
  'inventory_manager',
] as const satisfies readonly Role[];
/** Who may decide one: a branch manager of the approval's branch (admin always may). */
export const APPROVAL_DECIDERS = ['branch_manager'] as const satisfies readonly Role[];
