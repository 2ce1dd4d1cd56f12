import type { Role } from '@pharmacy/contracts';

/** Who receives a delivery into a branch (admin always may): pharmacists too, in small branches. */
export const BATCH_RECEIVERS = [
  'inventory_manager',
  'branch_manager',
  'pharmacist',
] as const satisfies readonly Role[];
