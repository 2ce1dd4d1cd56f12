import { BranchFilter } from '../branch/BranchFilter';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { useBranches } from '../branch/useBranches';

/** A YYYY-MM-DD from a date input as the start (or the end) of that local day, in ISO-8601. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const d = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <em>—</em>;
  return <pre>{JSON.stringify(value, null, 2)}</pre>;
}

export function AuditScreen() {
  const me = useUser();
  const branches = useBranches();
  const [entity, setEntity] = useState('');
  const [action, setAction] = useState('');
  const [branchId, setBranchId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const filters = {
    entity: useDeferredValue(entity.trim()),
    action: useDeferredValue(action.trim()),
    branch_id: branchId,
    from: dayBound(from, false),
    to: dayBound(to, true),
  };
  const audit = useQuery({
    queryKey: ['audit', filters, page],
    queryFn: () =>
      api.audit.list({
        ...filters,
        branch_id: filters.branch_id || undefined,
        page,
        page_size: 50,
      }),
    placeholderData: keepPreviousData,
  });
  const pages = audit.data ? Math.max(1, Math.ceil(audit.data.total / audit.data.page_size)) : 1;
  const branchName = (id: string | null) => branches.data?.items.find((b) => b.id === id)?.name ?? '—';
  const resetPage =
    <T,>(setter: (v: T) => void) =>
    (v: T) => {
      setter(v);
      setPage(1);
    };

  return (
    <section aria-labelledby="audit-title">
      <div className="screen-header">
        <h1 id="audit-title">Audit log</h1>
      </div>
      <search className="filters">
        <TextField
          label="Entity"
          value={entity}
          onChange={resetPage(setEntity)}
          placeholder="e.g. user, settings"
        />
        <TextField
          label="Action"
          value={action}
          onChange={resetPage(setAction)}
          placeholder="e.g. user.create"
        />
        {me.role !== 'branch_manager' && <BranchFilter value={branchId} onChange={resetPage(setBranchId)} />}
        <TextField label="From" type="date" value={from} onChange={resetPage(setFrom)} />
        <TextField label="To" type="date" value={to} onChange={resetPage(setTo)} />
      </search>
      <ErrorNotice error={audit.error} />
      <table aria-label="Audit entries">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Entity</th>
            <th scope="col">Branch</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {audit.data?.items.map((entry) => (
            <tr key={entry.id}>
              <td>{formatDateTime(entry.created_at)}</td>
              <td>{entry.user_name ?? 'System'}</td>
              <td>{entry.action}</td>
              <td>
                {entry.entity}
                {entry.entity_id && <small className="muted"> {entry.entity_id.slice(0, 8)}</small>}
              </td>
              <td>{branchName(entry.branch_id)}</td>
              <td>
                <details>
                  <summary>Before and after</summary>
                  <div className="diff">
                    <div>
                      <strong>Before</strong>
                      <Json value={entry.before} />
                    </div>
                    <div>
                      <strong>After</strong>
                      <Json value={entry.after} />
                    </div>
                  </div>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {audit.data && audit.data.items.length === 0 && <p>No audit entries match.</p>}
      <div className="pager">
        <button type="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          Previous page
        </button>
        <span>
          Page {page} of {pages} ({audit.data?.total ?? 0} entries)
        </span>
        <button type="button" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
          Next page
        </button>
      </div>
    </section>
  );
}
