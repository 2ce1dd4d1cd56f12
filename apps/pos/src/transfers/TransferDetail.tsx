import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../api';
import { type Column, DataTable } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import type { Transfer } from '@pharmacy/contracts';
import { transferState } from './transfer-state';

type Line = Transfer['items'][number];

/** One transfer (a stock ledger's document link): where it went, its state and what arrived of each line. */
export function TransferDetail({ transferId }: { transferId: string }) {
  const money = useFormatMoney();
  const transfer = useQuery({
    queryKey: ['transfers', 'one', transferId],
    queryFn: () => api.transfers.get(transferId),
  });
  const t = transfer.data;
  const columns: Column<Line>[] = [
    { key: 'medicine', header: 'Medicine', cell: (i) => i.medicine_name },
    { key: 'batch', header: 'Batch', cell: (i) => `${i.batch_number} (exp ${i.expiry_date})` },
    { key: 'sent', header: 'Sent', align: 'end', cell: (i) => i.quantity },
    { key: 'received', header: 'Received', align: 'end', cell: (i) => i.received_quantity ?? '—' },
    { key: 'reason', header: 'Discrepancy', cell: (i) => i.discrepancy_reason ?? '—' },
    { key: 'cost', header: 'Unit cost', align: 'end', cell: (i) => money(i.unit_cost) },
  ];
  return (
    <section aria-labelledby="transfer-detail-title">
      <p>
        <Link href="/">← All transfers</Link>
      </p>
      <ErrorNotice error={transfer.error} />
      {t && (
        <>
          <h2 id="transfer-detail-title">
            Transfer from {t.from_branch_name} to {t.to_branch_name}
          </h2>
          <dl className="facts">
            <dt>Status</dt>
            <dd>{transferState(t)}</dd>
            <dt>Sent</dt>
            <dd>{formatDateTime(t.created_at)}</dd>
            <dt>Received</dt>
            <dd>{t.received_at ? formatDateTime(t.received_at) : '—'}</dd>
            {t.cancelled_at && (
              <>
                <dt>Cancelled</dt>
                <dd>{formatDateTime(t.cancelled_at)}</dd>
              </>
            )}
            <dt>Notes</dt>
            <dd>{[t.notes, t.receipt_notes].filter(Boolean).join(' · ') || '—'}</dd>
          </dl>
          <DataTable
            label="Transfer lines"
            columns={columns}
            rows={t.items}
            rowKey={(i) => i.id}
            empty="No lines."
          />
        </>
      )}
    </section>
  );
}
