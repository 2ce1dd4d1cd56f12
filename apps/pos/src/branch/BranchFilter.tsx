import { SelectField } from '../ui/fields';
import { useBranches } from './useBranches';

/** The "Branch" filter of an organisation-wide list: one branch, or "All branches" (the empty value). */
export function BranchFilter({ value, onChange }: { value: string; onChange: (branchId: string) => void }) {
  const branches = useBranches();
  return (
    <SelectField
      label="Branch"
      value={value}
      onChange={onChange}
      options={[
        { value: '', label: 'All branches' },
        ...(branches.data?.items ?? []).map((b) => ({ value: b.id, label: b.name })),
      ]}
    />
  );
}
