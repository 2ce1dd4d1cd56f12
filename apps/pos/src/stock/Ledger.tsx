import type { LedgerMovement } from '@pharmacy/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api';
import { type Column, DataTable, Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { formatDateTime } from '../ui/format';

const KINDS: Record<string, string> = {
  purchase: 'Received',
  sale: 'Sale',
  return: 'Return',
  transfer_out: 'Transfer out',
  transfer_in: 'Transfer in',
  adjustment: 'Adjustment',
  write_off: 'Write-off',
  count: 'Stock count',
};

/** Where a movement's document is shown in the app, when it has a screen. */
function documentLink(m: LedgerMovement) {
  if (!m.reference_type || !m.reference_id) return '—';
  const short = m.reference_id.slice(-8);
  const path: Record<string, string> = {
    purchase_order: `~/back-office/purchase-orders/${m.reference_id}`,
    transfer: `~/back-office/transfers/${m.reference_id}`,
    stock_count: `~/back-office/stock-counts/${m.reference_id}`,
  };
  const href = path[m.reference_type];
  const label = `${m.reference_type.replace(/_/g, ' ')} …${short}`;
  return href ? <Link href={href}>{label}</Link> : <span title={m.reference_id}>{label}</span>;
}

const COLUMNS: Column<LedgerMovement>[] = [
  { key: 'created_at', header: 'Date', cell: (m) => formatDateTime(m.created_at) },
  { key: 'type', header: 'Kind', cell: (m) => KINDS[m.type] ?? m.type },
  { key: 'batch', header: 'Batch', cell: (m) => m.batch_number },
  {
    key: 'quantity',
    header: 'Quantity',
    align: 'end',
    cell: (m) => (m.quantity > 0 ? `+${m.quantity}` : m.quantity),
  },
  { key: 'balance', header: 'Balance', align: 'end', cell: (m) => m.balance_after ?? '—' },
  { key: 'user', header: 'Who', cell: (m) => m.user_name ?? '—' },
  { key: 'reason', header: 'Reason', cell: (m) => m.reason || '—' },
  { key: 'document', header: 'Document', cell: documentLink },
];

/** The movement ledger of a medicine in a branch, or of one batch, newest first with the running balance. */
export function Ledger({
  medicineId,
  branchId,
  batchId,
}: {
  medicineId: string;
  branchId: string;
  batchId?: string;
}) {
  const [page, setPage] = useState(1);
  const query = { branch_id: branchId, batch_id: batchId, page, page_size: 25 };
  const ledger = useQuery({
    queryKey: ['ledger', medicineId, query],
    queryFn: () => api.medicines.movements(medicineId, query),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <ErrorNotice error={ledger.error} />
      <DataTable
        label="Movement ledger"
        columns={COLUMNS}
        rows={ledger.data?.items}
        rowKey={(m) => m.id}
        empty="No movements yet."
      />
      <Pager page={page} pageSize={25} total={ledger.data?.total} noun="movements" onPage={setPage} />
    </>
  );
}
