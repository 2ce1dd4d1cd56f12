import type { Role } from '@pharmacy/contracts';
import { useSyncExternalStore } from 'react';
import { useBranches } from '../backoffice/useBranches';
import { useUser } from '../session/SessionProvider';
import { SelectField } from '../ui/fields';

/** Roles tied to one branch: the server always answers with their own branch's stock. */
const BRANCH_BOUND: readonly Role[] = ['cashier', 'pharmacist', 'branch_manager'];

/** The branch the stock screens show, shared by Medicines, Stock, Receiving and Alerts for the session. */
const KEY = 'inventory-branch';
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

/** The branch whose stock the inventory screens show: a branch-bound user's own; an organisation-wide user's pick. */
export function useInventoryBranch(): { branchId: string; canPick: boolean; pick: (id: string) => void } {
  const me = useUser();
  const chosen = useSyncExternalStore(subscribe, current);
  const canPick = !BRANCH_BOUND.includes(me.role);
  return { branchId: canPick ? (chosen ?? me.branch_id) : me.branch_id, canPick, pick };
}

/** "Branch" picker for admins and other organisation-wide roles; a branch manager sees their branch's name. */
export function BranchPicker() {
  const { branchId, canPick, pick: choose } = useInventoryBranch();
  const branches = useBranches();
  const items = branches.data?.items ?? [];
  if (!canPick) {
    const mine = items.find((b) => b.id === branchId);
    return <p className="branch-note">Branch: {mine?.name ?? '…'}</p>;
  }
  return (
    <SelectField
      label="Branch"
      value={branchId}
      onChange={choose}
      options={items.map((b) => ({ value: b.id, label: b.name }))}
    />
  );
}
