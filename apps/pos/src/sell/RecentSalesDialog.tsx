import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { PrintButton } from '../print/PrintButton';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { formatDateTime } from '../ui/format';

const RECENT = 8;

/**
 * The till's recent sales, newest first (issue 29, "after the sale"): pick one to see its receipt as a copy
 * and reprint it, marked COPY, through the print queue.
 */
export function RecentSalesDialog({ onClose }: { onClose: () => void }) {
  const sales = useQuery({
    queryKey: ['sales', 'recent'],
    queryFn: () => api.sales.list({ page_size: RECENT }),
  });
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = picked ?? sales.data?.items[0]?.id ?? null;
  return (
    <Dialog title="Recent sales" onClose={onClose}>
      <ErrorNotice error={sales.error} />
      {sales.data?.items.length === 0 && <p className="muted">No sales yet.</p>}
      <div className="recent-sales">
        <ul className="plain-list" aria-label="Recent sales">
          {sales.data?.items.map((s, i) => (
            <li key={s.id}>
              <button
                type="button"
                className={s.id === chosen ? 'ghost sale-pick selected' : 'ghost sale-pick'}
                aria-pressed={s.id === chosen}
                onClick={() => setPicked(s.id)}
                data-autofocus={i === 0 ? '' : undefined}
              >
                {s.invoice_number} · {s.total_amount} {s.currency_code}
                <small className="muted block">{formatDateTime(s.sold_at)}</small>
              </button>
            </li>
          ))}
        </ul>
        {chosen && <ReceiptCopy saleId={chosen} />}
      </div>
    </Dialog>
  );
}

function ReceiptCopy({ saleId }: { saleId: string }) {
  const receipt = useQuery({
    queryKey: ['sale-receipt', saleId, 'copy'],
    queryFn: () => api.sales.receipt(saleId, { copy: 'true' }),
  });
  return (
    <div>
      <figure aria-label="Receipt copy" className="receipt-figure">
        {receipt.error ? (
          <ErrorNotice error={receipt.error} />
        ) : (
          <pre className="receipt">{receipt.data?.text ?? 'Loading the receipt…'}</pre>
        )}
      </figure>
      <PrintButton key={saleId} documentType="receipt" referenceId={saleId} label="Reprint receipt" reprint />
    </div>
  );
}
