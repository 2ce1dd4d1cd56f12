import { BRANCH_MANAGERS, STOCK_MANAGERS, STOCK_READERS } from '@pharmacy/contracts/roles';

export const PO_READERS = STOCK_READERS;
/** Who raises an order and moves its status (admin always may). */
export const PO_CREATORS = BRANCH_MANAGERS;
export const PO_RECEIVERS = STOCK_MANAGERS;
