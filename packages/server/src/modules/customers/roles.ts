import type { Role } from '@pharmacy/contracts';

/** Who grants or changes a customer's credit terms (admin always may). */
export const CREDIT_GRANTERS = ['branch_manager'] as const satisfies readonly Role[];
