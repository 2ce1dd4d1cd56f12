import type { Transfer } from '@pharmacy/contracts';
import { allows, STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useRoute } from 'wouter';
import { api } from '../api';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useUser } from '../session/SessionProvider';
import { type Column, DataTable, Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { CancelTransfer } from './CancelTransfer';
import { lineOutcome } from './receipt-draft';
import { TransferDetail } from './TransferDetail';
import { transferState } from './transfer-state';
import { ReceiveTransfer } from './ReceiveTransfer';
import { SendTransfer } from './SendTransfer';

const PAGE_SIZE = 25;
type Direction = 'both' | 'in' | 'out';
type Action = { kind: 'receive' | 'cancel'; transfer: Transfer } | null;

const units = (t: Transfer) => t.items.reduce((n, i) => n + i.quantity, 0);

/**
 * The "Transfers" section: send stock to another branch (it leaves this branch and is in transit), the
 * transfers in transit to or from the branch (receive an incoming one, cancel an outgoing one), and every
 * transfer leaving or entering the branch.
 */
export function TransfersScreen() {
  const [, one] = useRoute('/:transferId');
  return one ? (
    <section aria-labelledby="transfers-title">
      <div className="screen-header">
        <h1 id="transfers-title">Transfers</h1>
      </div>
      <TransferDetail transferId={one.transferId} />
    </section>
  ) : (
    <TransferList />
  );
}

function TransferList() {
  const me = useUser();
  const canMove = allows(STOCK_MANAGERS, me.role); // the transfers write routes' roles
  const { branchId, canPick } = useWorkingBranch();
  const [direction, setDirection] = useState<Direction>('both');
  const [page, setPage] = useState(1);
  const [sending, setSending] = useState(false);
  const [action, setAction] = useState<Action>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const query = { branch_id: branchId, direction, page, page_size: PAGE_SIZE };
  const transfers = useQuery({
    queryKey: ['transfers', query],
    queryFn: () => api.transfers.list(query),
    placeholderData: keepPreviousData,
  });
  const done = (text: string) => {
    setNotice(text);
    setAction(null);
    setSending(false);
  };
  return (
    <section aria-labelledby="transfers-title">
      <div className="screen-header">
        <h1 id="transfers-title">Transfers</h1>
        {canMove && !sending && (
          <button
            type="button"
            className="primary"
            onClick={() => {
              setSending(true);
              setAction(null);
              setNotice(null);
            }}
          >
            Send stock
          </button>
        )}
      </div>
      {notice && (
        <p role="status" className="notice ok">
          {notice}
        </p>
      )}
      {sending && (
        <SendTransfer
          fromBranchId={branchId}
          onSent={(t) =>
            done(
              `Sent ${units(t)} units to ${t.to_branch_name}, in transit: ${t.items.map((i) => `${i.medicine_name} ${i.batch_number} ×${i.quantity}`).join(', ')}.`,
            )
          }
          onClose={() => setSending(false)}
        />
      )}
      {action?.kind === 'receive' && (
        <ReceiveTransfer
          transfer={action.transfer}
          onReceived={(t) =>
            done(
              `Received from ${t.from_branch_name}: ${t.items.map((i) => `${i.medicine_name} ${i.batch_number} ${lineOutcome(i)}`).join(', ')}.`,
            )
          }
          onClose={() => setAction(null)}
        />
      )}
      {action?.kind === 'cancel' && (
        <CancelTransfer
          transfer={action.transfer}
          onCancelled={(t) =>
            done(`Cancelled the transfer to ${t.to_branch_name}; ${units(t)} units are back in stock.`)
          }
          onClose={() => setAction(null)}
        />
      )}
      {canPick && (
        <search className="filters">
          <BranchPicker
            onPick={() => {
              setPage(1);
              setSending(false);
              setAction(null);
            }}
          />
        </search>
      )}
      <InTransit
        branchId={branchId}
        canMove={canMove}
        busy={sending || action !== null}
        onAction={(a) => {
          setAction(a);
          setNotice(null);
        }}
      />
      <h2 id="transfer-history">All transfers</h2>
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
      </search>
      <ErrorNotice error={transfers.error} />
      <DataTable
        label="Transfers"
        columns={historyColumns(branchId)}
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

const directionOf = (t: Transfer, branchId: string) =>
  t.to_branch_id === branchId ? `In from ${t.from_branch_name}` : `Out to ${t.to_branch_name}`;

function historyColumns(branchId: string): Column<Transfer>[] {
  return [
    {
      key: 'created_at',
      header: 'Sent',
      cell: (t) => (
        <Link
          href={`/${t.id}`}
          aria-label={`Transfer ${directionOf(t, branchId)} sent ${formatDateTime(t.created_at)}`}
        >
          {formatDateTime(t.created_at)}
        </Link>
      ),
    },
    { key: 'direction', header: 'Direction', cell: (t) => directionOf(t, branchId) },
    { key: 'items', header: 'Batches', cell: (t) => <TransferLines transfer={t} /> },
    { key: 'units', header: 'Units', align: 'end', cell: units },
    {
      key: 'status',
      header: 'Status',
      cell: (t) => (
        <>
          {transferState(t)}
          {t.received_at && t.status !== 'completed' && (
            <small className="muted"> {formatDateTime(t.received_at)}</small>
          )}
        </>
      ),
    },
    {
      key: 'notes',
      header: 'Notes',
      cell: (t) => [t.notes, t.receipt_notes].filter(Boolean).join(' · ') || '—',
    },
  ];
}

/** The transfers in transit to or from the branch, with Receive (incoming) and Cancel (outgoing). */
function InTransit({
  branchId,
  canMove,
  busy,
  onAction,
}: {
  branchId: string;
  canMove: boolean;
  busy: boolean;
  onAction: (a: Action) => void;
}) {
  const query = {
    branch_id: branchId,
    direction: 'both' as const,
    status: 'in_transit' as const,
    page_size: 100,
  };
  const transit = useQuery({ queryKey: ['transfers', query], queryFn: () => api.transfers.list(query) });
  const columns: Column<Transfer>[] = [
    { key: 'created_at', header: 'Sent', cell: (t) => formatDateTime(t.created_at) },
    { key: 'direction', header: 'Direction', cell: (t) => directionOf(t, branchId) },
    { key: 'items', header: 'Batches', cell: (t) => <TransferLines transfer={t} /> },
    { key: 'units', header: 'Units', align: 'end', cell: units },
  ];
  if (canMove)
    columns.push({
      key: 'actions',
      header: 'Actions',
      cell: (t) =>
        t.to_branch_id === branchId ? (
          <button
            type="button"
            disabled={busy}
            aria-label={`Receive transfer from ${t.from_branch_name} sent ${formatDateTime(t.created_at)}`}
            onClick={() => onAction({ kind: 'receive', transfer: t })}
          >
            Receive
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            aria-label={`Cancel transfer to ${t.to_branch_name} sent ${formatDateTime(t.created_at)}`}
            onClick={() => onAction({ kind: 'cancel', transfer: t })}
          >
            Cancel
          </button>
        ),
    });
  return (
    <section aria-labelledby="in-transit-title">
      <h2 id="in-transit-title">In transit</h2>
      <p className="muted">
        Stock in transit has left the sending branch and joins the receiving branch's stock once received
        there; the sender may cancel it until then.
      </p>
      <ErrorNotice error={transit.error} />
      <DataTable
        label="In transit"
        columns={columns}
        rows={transit.data?.items}
        rowKey={(t) => t.id}
        empty="Nothing in transit to or from this branch."
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
          {transfer.status === 'received' && i.received_quantity !== i.quantity && ` · ${lineOutcome(i)}`}
        </li>
      ))}
    </ul>
  );
}
