import type { LedgerMovement } from '@pharmacy/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api';
import { type Column, DataTable, Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { formatDateTime } from '../ui/format';
import { ledgerDocument } from './ledger-links';

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

/** The movement's document: a link to its screen where the app has one (ledger-links.ts), else its name. */
function documentLink(m: LedgerMovement) {
  const doc = ledgerDocument(m);
  if (!doc) return '—';
  return doc.href ? (
    <Link href={doc.href}>{doc.label}</Link>
  ) : (
    <span title={m.reference_id ?? undefined}>{doc.label}</span>
  );
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
