import { allows, APPROVAL_DECIDERS } from '@pharmacy/contracts/roles';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { CheckboxField, SelectField } from '../ui/fields';
import { ApprovalsWaiting } from './ApprovalsWaiting';
import { CountSheet } from './CountSheet';

interface Started {
  branchId: string;
  category: string;
  includeEmpty: boolean;
}

/** The "Stock counts" section: start a count sheet of the branch (or one category), count, review, submit. */
export function StockCountsScreen() {
  const me = useUser();
  const { branchId, canPick } = useWorkingBranch();
  const [category, setCategory] = useState('');
  const [includeEmpty, setIncludeEmpty] = useState(false);
  const [started, setStarted] = useState<Started | null>(null);
  const categories = useQuery({
    queryKey: ['categories'],
    queryFn: () => api.stockCount.categories(),
    staleTime: 60_000,
  });
  return (
    <section aria-labelledby="counts-title">
      <div className="screen-header">
        <h1 id="counts-title">Stock counts</h1>
      </div>
      {allows(APPROVAL_DECIDERS, me.role) && <ApprovalsWaiting />}
      {started ? (
        <CountSheet {...started} onClose={() => setStarted(null)} />
      ) : (
        <form
          className="card"
          aria-labelledby="start-title"
          onSubmit={(e) => {
            e.preventDefault();
            setStarted({ branchId, category, includeEmpty });
          }}
        >
          <h2 id="start-title">Start a count sheet</h2>
          <ErrorNotice error={categories.error} />
          <div className="filters">
            {canPick && <BranchPicker />}
            <SelectField
              label="Count"
              value={category}
              onChange={setCategory}
              options={[
                { value: '', label: 'The whole branch' },
                ...(categories.data?.items ?? []).map((c) => ({
                  value: c.slug,
                  label: `Category: ${c.name}`,
                })),
              ]}
            />
          </div>
          <CheckboxField label="Include empty batches" checked={includeEmpty} onChange={setIncludeEmpty} />
          <p className="muted">
            Quantities you enter are kept on this till until the count is submitted, so a long count can be
            resumed.
          </p>
          <div className="form-actions">
            <button type="submit" className="primary">
              Start count sheet
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
