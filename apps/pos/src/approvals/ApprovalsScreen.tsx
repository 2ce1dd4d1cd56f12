import { allows, APPROVAL_DECIDERS, ORGANISATION_READERS } from '@pharmacy/contracts/roles';
import { BranchFilter } from '../branch/BranchFilter';
import type { Approval } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { useBranches } from '../branch/useBranches';
import { useUser } from '../session/SessionProvider';
import { DataTable, Pager } from '../ui/DataTable';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, SelectField, TextAreaField } from '../ui/fields';
import { useOrgDateTime } from '../ui/org-time';
import { APPROVAL_KIND_LABELS, describeApproval } from './describe';
import { useApprovalLookups } from './useApprovalNames';

type Status = 'pending' | 'approved' | 'rejected' | 'used' | 'all';
const STATUS_OPTIONS: { value: Status; label: string }[] = [
  { value: 'pending', label: 'Pending (inbox)' },
  { value: 'approved', label: 'Approved, not yet used' },
  { value: 'used', label: 'Used' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'all', label: 'All (history)' },
];
const PAGE_SIZE = 50;

/** The manager's inbox of approval requests from the tills, and their history. */
export function ApprovalsScreen() {
  const me = useUser();
  const [status, setStatus] = useState<Status>('pending');
  const [branchId, setBranchId] = useState('');
  const [page, setPage] = useState(1);
  const [deciding, setDeciding] = useState<{ approval: Approval; verdict: 'approved' | 'rejected' } | null>(
    null,
  );
  const branches = useBranches();
  const orgWide = allows(ORGANISATION_READERS, me.role);
  const query = { status, branch_id: branchId || undefined, page, page_size: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['approvals', query],
    queryFn: () => api.approvals.list(query),
    placeholderData: keepPreviousData,
    // Requests arrive from the tills while the manager watches: the inbox looks again every 5 s.
    refetchInterval: 5_000,
  });
  const lookups = useApprovalLookups(list.data?.items);
  const when = useOrgDateTime();
  // Deciding is for the branch's manager (admin too); an auditor reads.
  const canDecide = allows(APPROVAL_DECIDERS, me.role);
  const branchName = (id: string) => branches.data?.items.find((b) => b.id === id)?.name ?? '—';

  return (
    <section aria-labelledby="approvals-title">
      <div className="screen-header">
        <h1 id="approvals-title">Approvals</h1>
      </div>
      <search className="filters">
        <SelectField
          label="Show"
          value={status}
          onChange={(v) => {
            setStatus(v as Status);
            setPage(1);
          }}
          options={STATUS_OPTIONS}
        />
        {orgWide && (
          <BranchFilter
            value={branchId}
            onChange={(v) => {
              setBranchId(v);
              setPage(1);
            }}
          />
        )}
      </search>
      <ErrorNotice error={list.error} />
      <DataTable
        label="Approval requests"
        rows={list.data?.items}
        rowKey={(a) => a.id}
        empty={status === 'pending' ? 'No requests are waiting.' : 'No approvals match.'}
        columns={[
          { key: 'created_at', header: 'Asked at', cell: (a) => when(a.created_at) },
          { key: 'kind', header: 'Kind', cell: (a) => APPROVAL_KIND_LABELS[a.kind] ?? a.kind },
          {
            key: 'what',
            header: 'What is asked (limits)',
            cell: (a) => describeApproval(a.kind, a.payload, lookups),
          },
          { key: 'reason', header: 'Reason given', cell: (a) => a.reason },
          { key: 'by', header: 'Asked by', cell: (a) => a.requested_by_name ?? '—' },
          ...(orgWide
            ? [{ key: 'branch', header: 'Branch', cell: (a: Approval) => branchName(a.branch_id) }]
            : []),
          { key: 'status', header: 'Status', cell: (a) => statusText(a, when) },
          ...(canDecide && status === 'pending'
            ? [
                {
                  key: 'actions',
                  header: 'Decision',
                  cell: (a: Approval) => <Decide approval={a} onDecide={setDeciding} />,
                },
              ]
            : []),
        ]}
      />
      <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.total} noun="requests" onPage={setPage} />
      {deciding && <DecideDialog {...deciding} lookups={lookups} onClose={() => setDeciding(null)} />}
    </section>
  );
}

function statusText(a: Approval, when: (iso: string | null) => string): string {
  if (a.status === 'pending') return a.is_expired ? 'Expired' : `Pending until ${when(a.expires_at)}`;
  const who = a.decided_by_name ? ` by ${a.decided_by_name}` : '';
  const why = a.decision_reason ? `: ${a.decision_reason}` : '';
  if (a.status === 'used') return `Used ${when(a.used_at)} (approved${who})`;
  return `${a.status === 'approved' ? 'Approved' : 'Rejected'}${who}${why}`;
}

function Decide({
  approval,
  onDecide,
}: {
  approval: Approval;
  onDecide: (d: { approval: Approval; verdict: 'approved' | 'rejected' }) => void;
}) {
  const who = approval.requested_by_name ?? 'the requester';
  return (
    <div className="actions">
      <button
        type="button"
        aria-label={`Approve the request of ${who}`}
        onClick={() => onDecide({ approval, verdict: 'approved' })}
      >
        Approve
      </button>
      <button
        type="button"
        aria-label={`Reject the request of ${who}`}
        onClick={() => onDecide({ approval, verdict: 'rejected' })}
      >
        Reject
      </button>
    </div>
  );
}

function DecideDialog({
  approval,
  verdict,
  lookups,
  onClose,
}: {
  approval: Approval;
  verdict: 'approved' | 'rejected';
  lookups: Parameters<typeof describeApproval>[2];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const decide = useMutation({
    mutationFn: () => api.approvals.decide(approval.id, { status: verdict, reason }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['approvals'] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    decide.mutate();
  };
  const title = verdict === 'approved' ? 'Approve the request' : 'Reject the request';
  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p>
          <strong>{approval.requested_by_name ?? 'Someone'}</strong> asks:{' '}
          {describeApproval(approval.kind, approval.payload, lookups)}. Their reason: “{approval.reason}”.
        </p>
        <ErrorNotice error={decide.error} />
        <TextAreaField
          label="Reason for your decision"
          value={reason}
          onChange={setReason}
          error={fieldError(decide.error, 'reason')}
          maxLength={500}
        />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={decide.isPending}>
            {verdict === 'approved' ? 'Approve' : 'Reject'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
