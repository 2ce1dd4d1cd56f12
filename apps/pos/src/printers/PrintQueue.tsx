import type { PrintJob, PrintJobStatus } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { labelOf, plainWords } from '@pharmacy/contracts/plain-words';

const DOCUMENT_NAMES: Record<string, string> = {
  receipt: 'Receipt',
  invoice: 'Invoice',
  credit_note: 'Credit note',
  label: 'Shelf label',
  report: 'Z report',
};
const PAGE_SIZE = 25;

/** The branch's print jobs, newest first: status, printer, attempts and reason; retry, cancel, reprint. */
export function PrintQueue() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const jobs = useQuery({
    queryKey: ['print-jobs', status, page],
    queryFn: () =>
      api.printing.jobs({ ...(status && { status: status as PrintJobStatus }), page, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const printers = useQuery({ queryKey: ['printers', 'list'], queryFn: () => api.printing.printers() });
  const nameOf = (id: string | null) =>
    id ? (printers.data?.items.find((p) => p.id === id)?.name ?? id) : 'Branch default';
  const act = useMutation({
    mutationFn: ({ job, kind }: { job: PrintJob; kind: 'cancel' | 'retry' | 'reprint' }) =>
      kind === 'cancel'
        ? api.printing.cancelJob(job.id)
        : api.printing.reprintJob(job.id, { reason: kind === 'retry' ? 'retry after failure' : 'reprint' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['print-jobs'] }),
  });
  return (
    <section aria-label="Print queue">
      <div className="filters">
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          options={[
            { value: '', label: 'All' },
            { value: 'queued', label: 'Queued' },
            { value: 'printing', label: 'Printing' },
            { value: 'completed', label: 'Printed' },
            { value: 'failed', label: 'Failed' },
            { value: 'cancelled', label: 'Cancelled' },
          ]}
        />
      </div>
      <ErrorNotice error={jobs.error ?? act.error} />
      {act.isSuccess && (
        <p role="status">Print job {act.variables.kind === 'cancel' ? 'cancelled' : 'queued again'}.</p>
      )}
      <table aria-label="Print jobs">
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Document</th>
            <th scope="col">Printer</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">Reason</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {jobs.data?.items.map((j) => (
            <tr key={j.id}>
              <td>{formatDateTime(j.created_at)}</td>
              <td>
                {DOCUMENT_NAMES[j.document_type] ?? j.document_type}
                {j.copies > 1 && ` ×${j.copies}`}
              </td>
              <td>{nameOf(j.printer_id)}</td>
              <td>{labelOf(j.status)}</td>
              <td className="num">{j.attempts}</td>
              <td className="wrap-anywhere">{j.last_error ? plainWords(j.last_error) : ''}</td>
              <td className="actions">
                {j.status === 'queued' && (
                  <button
                    type="button"
                    disabled={act.isPending}
                    onClick={() => act.mutate({ job: j, kind: 'cancel' })}
                  >
                    Cancel
                  </button>
                )}
                {j.status === 'failed' && (
                  <button
                    type="button"
                    disabled={act.isPending}
                    onClick={() => act.mutate({ job: j, kind: 'retry' })}
                  >
                    Retry
                  </button>
                )}
                {(j.status === 'completed' || j.status === 'cancelled') && (
                  <button
                    type="button"
                    disabled={act.isPending}
                    onClick={() => act.mutate({ job: j, kind: 'reprint' })}
                  >
                    Reprint
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {jobs.data && jobs.data.items.length === 0 && <p>No print jobs.</p>}
      <Pager page={page} pageSize={PAGE_SIZE} total={jobs.data?.total} noun="jobs" onPage={setPage} />
    </section>
  );
}
