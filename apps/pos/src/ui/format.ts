import type { Role } from '@pharmacy/contracts';

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  pharmacist: 'Pharmacist',
  cashier: 'Cashier',
  branch_manager: 'Branch manager',
  inventory_manager: 'Inventory manager',
  auditor: 'Auditor',
};

/**
 * Every role, from the exhaustive label map rather than the contracts' runtime list: importing
 * values from @pharmacy/contracts would pull zod and every schema into the till's bundle.
 */
export const ROLES = Object.keys(ROLE_LABELS) as Role[];

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}
