import type { Role, Transfer } from '@pharmacy/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { BranchPicker, useWorkingBranch } from '../backoffice/useWorkingBranch';
import { useUser } from '../session/SessionProvider';
import { type Column, DataTable, Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { SendTransfer } from './SendTransfer';

const PAGE_SIZE = 25;
/** Who may send (POST /transfers roles; admin always). */
const MOVERS: readonly Role[] = ['admin', 'branch_manager', 'inventory_manager'];
type Direction = 'both' | 'in' | 'out';

/**
 * The "Transfers" section: send stock to another branch, and the transfers leaving or entering the branch.
 * The API completes a transfer when it is sent (no in-transit state): the destination's stock is booked at
 * once, so an incoming transfer is shown as received.
 */
export function TransfersScreen() {
  const me = useUser();
  const { branchId, canPick } = useWorkingBranch();
  const [direction, setDirection] = useState<Direction>('both');
  const [page, setPage] = useState(1);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<Transfer | null>(null);
  const query = { branch_id: branchId, direction, page, page_size: PAGE_SIZE };
  const transfers = useQuery({
    queryKey: ['transfers', query],
    queryFn: () => api.transfers.list(query),
    placeholderData: keepPreviousData,
  });
  const columns: Column<Transfer>[] = [
    { key: 'created_at', header: 'Sent', cell: (t) => formatDateTime(t.created_at) },
    {
      key: 'direction',
      header: 'Direction',
      cell: (t) =>
        t.to_branch_id === branchId ? `In from ${t.from_branch_name}` : `Out to ${t.to_branch_name}`,
    },
    { key: 'items', header: 'Batches', cell: (t) => <TransferLines transfer={t} /> },
    { key: 'units', header: 'Units', align: 'end', cell: (t) => t.items.reduce((n, i) => n + i.quantity, 0) },
    {
      key: 'status',
      header: 'Status',
      cell: (t) => (t.to_branch_id === branchId ? 'Received into stock' : 'Delivered'),
    },
    { key: 'notes', header: 'Notes', cell: (t) => t.notes || '—' },
  ];
  return (
    <section aria-labelledby="transfers-title">
      <div className="screen-header">
        <h1 id="transfers-title">Transfers</h1>
        {MOVERS.includes(me.role) && !sending && (
          <button
            type="button"
            className="primary"
            onClick={() => {
              setSending(true);
              setSent(null);
            }}
          >
            Send stock
          </button>
        )}
      </div>
      {sent && (
        <p role="status" className="notice ok">
          Sent {sent.items.reduce((n, i) => n + i.quantity, 0)} units to {sent.to_branch_name}:{' '}
          {sent.items.map((i) => `${i.medicine_name} ${i.batch_number} ×${i.quantity}`).join(', ')}.
        </p>
      )}
      {sending && (
        <SendTransfer
          fromBranchId={branchId}
          onSent={(t) => {
            setSent(t);
            setSending(false);
          }}
          onClose={() => setSending(false)}
        />
      )}
      <search className="filters">
        <SelectField
          label="Show"
          value={direction}
          onChange={(v) => {
            setDirection(v as Direction);
            setPage(1);
          }}
          options={[
            { value: 'both', label: 'Incoming and outgoing' },
            { value: 'in', label: 'Incoming' },
            { value: 'out', label: 'Outgoing' },
          ]}
        />
        {canPick && (
          <BranchPicker
            onPick={() => {
              setPage(1);
              setSending(false);
            }}
          />
        )}
      </search>
      <p className="muted">
        A transfer is booked at both branches when it is sent: the stock leaves this branch and arrives at the
        other at once, so nothing stays in transit.
      </p>
      <ErrorNotice error={transfers.error} />
      <DataTable
        label="Transfers"
        columns={columns}
        rows={transfers.data?.items}
        rowKey={(t) => t.id}
        empty="No transfers here yet."
      />
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={transfers.data?.total}
        noun="transfers"
        onPage={setPage}
      />
    </section>
  );
}

function TransferLines({ transfer }: { transfer: Transfer }) {
  return (
    <ul className="plain-list">
      {transfer.items.map((i) => (
        <li key={i.id}>
          {i.medicine_name}: {i.batch_number} (exp {i.expiry_date}) ×{i.quantity}
        </li>
      ))}
    </ul>
  );
}
