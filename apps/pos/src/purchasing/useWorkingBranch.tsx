import type { Role } from '@pharmacy/contracts';
import { useState } from 'react';
import { useBranches } from '../backoffice/useBranches';
import { useUser } from '../session/SessionProvider';
import { SelectField } from '../ui/fields';

/** Roles the server binds to their own branch whatever they ask (scopeBranch). */
const BRANCH_BOUND: readonly Role[] = ['cashier', 'pharmacist', 'branch_manager'];

/**
 * The branch a stock screen works on: a branch manager always their own; an organisation-wide role
 * (admin, inventory manager, auditor) picks one, starting from their own.
 */
export function useWorkingBranch(initial?: string | null) {
  const me = useUser();
  const [picked, setPicked] = useState(initial || me.branch_id);
  const canPick = !BRANCH_BOUND.includes(me.role);
  return { branchId: canPick ? picked : me.branch_id, canPick, setBranchId: setPicked };
}

export function BranchPicker({
  branchId,
  onChange,
  label = 'Branch',
}: {
  branchId: string;
  onChange: (branchId: string) => void;
  label?: string;
}) {
  const branches = useBranches();
  const options = (branches.data?.items ?? []).map((b) => ({ value: b.id, label: b.name }));
  if (!options.some((o) => o.value === branchId)) options.unshift({ value: branchId, label: '…' });
  return <SelectField label={label} value={branchId} onChange={onChange} options={options} />;
}

/** A branch's name from the cached list of branches. */
export function useBranchName(): (branchId: string) => string {
  const branches = useBranches();
  return (branchId) => branches.data?.items.find((b) => b.id === branchId)?.name ?? branchId;
}
