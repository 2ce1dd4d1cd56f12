import { BRANCH_BOUND_ROLES } from '@pharmacy/contracts/roles';
import { useSyncExternalStore } from 'react';
import { useUser } from '../session/SessionProvider';
import { SelectField } from '../ui/fields';
import { useBranches } from './useBranches';

/** Roles the server binds to their own branch whatever they ask (scopeBranch). */

/**
 * The branch the stock and purchasing screens work on (Medicines, Stock, Receiving, Alerts, Purchase orders,
 * Transfers, Stock counts, a supplier's invoices), one pick shared by all of them for the browser session.
 */
const KEY = 'working-branch';
// Read on first use, not at import: the module also loads where there is no sessionStorage (unit tests).
let picked: string | null | undefined;
function current(): string | null {
  if (picked === undefined)
    picked = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(KEY);
  return picked;
}
const listeners = new Set<() => void>();
function pick(branchId: string) {
  picked = branchId;
  sessionStorage.setItem(KEY, branchId);
  for (const l of listeners) l();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface WorkingBranch {
  /** A branch-bound user's own branch; an organisation-wide user's pick, their own until they pick. */
  branchId: string;
  /** Whether this user may work on another branch (admin, inventory manager, auditor). */
  canPick: boolean;
  pick: (branchId: string) => void;
}

export function useWorkingBranch(): WorkingBranch {
  const me = useUser();
  const chosen = useSyncExternalStore(subscribe, current);
  const canPick = !BRANCH_BOUND_ROLES.includes(me.role);
  return { branchId: canPick ? (chosen ?? me.branch_id) : me.branch_id, canPick, pick };
}

/**
 * The working branch's picker for organisation-wide roles; a branch-bound user sees their branch's name.
 * `onPick` runs after a pick (a list goes back to its first page).
 */
export function BranchPicker({
  label = 'Branch',
  onPick,
}: {
  label?: string;
  onPick?: (branchId: string) => void;
}) {
  const { branchId, canPick } = useWorkingBranch();
  const branches = useBranches();
  const items = branches.data?.items ?? [];
  if (!canPick) {
    const mine = items.find((b) => b.id === branchId);
    return <p className="branch-note">Branch: {mine?.name ?? '…'}</p>;
  }
  const options = items.map((b) => ({ value: b.id, label: b.name }));
  if (!options.some((o) => o.value === branchId)) options.unshift({ value: branchId, label: '…' });
  return (
    <SelectField
      label={label}
      value={branchId}
      onChange={(id) => {
        pick(id);
        onPick?.(id);
      }}
      options={options}
    />
  );
}
