import type { CashSession } from '@pharmacy/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { PrintButton } from '../print/PrintButton';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import { ZReportView } from './ZReportView';

const SHOWN = 10;

/**
 * The caller's closed sessions, newest close first, each with its Z-report to view again and reprint (marked
 * COPY): a Z does not vanish once the cashier leaves the screen. `closedNow` refreshes the list after a close.
 */
export function PastZReports({ closedNow }: { closedNow: string | null }) {
  const history = useQuery({
    queryKey: ['sessions', 'history', closedNow],
    queryFn: () => api.sessions.history({ page_size: SHOWN }),
    refetchOnMount: 'always',
  });
  const [viewing, setViewing] = useState<CashSession | null>(null);
  const money = useFormatMoney();
  const items = history.data?.items ?? [];
  return (
    <section className="card past-z" aria-labelledby="past-z">
      <h2 id="past-z">Past Z-reports</h2>
      <ErrorNotice error={history.error} />
      {history.data && items.length === 0 && <p className="muted">No closed sessions yet.</p>}
      {items.length > 0 && (
        <table aria-label="Past Z-reports">
          <thead>
            <tr>
              <th scope="col">Z</th>
              <th scope="col">Closed</th>
              <th scope="col" className="num">
                Sales
              </th>
              <th scope="col" className="num">
                Variance
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.z_number === null ? '—' : `Z ${s.z_number}`}</th>
                <td>{formatDateTime(s.closed_at)}</td>
                <td className="num">{s.total_sales}</td>
                <td className="num">{s.variance === null ? '—' : money(s.variance)}</td>
                <td>
                  <span className="actions">
                    <button type="button" onClick={() => setViewing(s)}>
                      View Z {s.z_number ?? ''}
                    </button>
                    <PrintButton
                      documentType="report"
                      referenceId={s.id}
                      label={`Reprint Z ${s.z_number ?? ''}`.trim()}
                      reprint
                    />
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {viewing && <PastZ session={viewing} onClose={() => setViewing(null)} />}
    </section>
  );
}

function PastZ({ session, onClose }: { session: CashSession; onClose: () => void }) {
  const report = useQuery({
    queryKey: ['z-report', session.id, 'final'],
    queryFn: () => api.sessions.zReport(session.id),
  });
  return (
    <Dialog title={`Z-report ${session.z_number ?? ''}`.trim()} onClose={onClose}>
      {report.data ? <ZReportView report={report.data} /> : <ErrorNotice error={report.error} />}
    </Dialog>
  );
}
