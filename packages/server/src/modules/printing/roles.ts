import type { Role } from '@pharmacy/contracts';

/** Who queues, reprints and cancels print jobs: everyone who works at a till; the auditor only reads (issue 26 L5). */
export const PRINT_JOB_ROLES: readonly Role[] = [
  'cashier',
  'pharmacist',
  'branch_manager',
  'inventory_manager',
];
