import type { PrintDocumentType, PrintJob } from '@pharmacy/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { describeError } from '../ui/ErrorNotice';
import { plainWords } from '@pharmacy/contracts/plain-words';

const STATUS_TEXT: Record<PrintJob['status'], string> = {
  queued: 'Print job queued',
  printing: 'Printing…',
  completed: 'Printed',
  failed: 'Printing failed',
  cancelled: 'Print job cancelled',
};

/**
 * Enqueues a print job and shows how it goes. Printing never blocks the till: a missing or
 * failing printer is reported here and the cashier carries on. `reprint`: a copy (marked COPY, no drawer)
 * of the document's last print job, or its first print when it was never queued.
 */
export function PrintButton({
  documentType,
  referenceId,
  label,
  reprint = false,
}: {
  documentType: PrintDocumentType;
  referenceId: string;
  label: string;
  reprint?: boolean;
}) {
  const create = useMutation({
    mutationFn: async () => {
      const document = { document_type: documentType, reference_id: referenceId };
      const last = reprint ? (await api.printing.jobs({ ...document, page_size: 1 })).items[0] : undefined;
      return last ? api.printing.reprintJob(last.id) : api.printing.createJob(document);
    },
  });
  const jobId = create.data?.id;
  const job = useQuery({
    queryKey: ['print-job', jobId],
    queryFn: () => api.printing.getJob(jobId as string),
    enabled: !!jobId,
    refetchInterval: (q) => {
      const status = q.state.data?.status;
      return status === 'queued' || status === 'printing' ? 2_000 : false;
    },
  });
  const current = job.data ?? create.data;
  let text = '';
  if (create.isPending) text = 'Sending to the printer…';
  else if (create.isError) text = `Could not queue the print job: ${describeError(create.error)}`;
  else if (current) {
    text = STATUS_TEXT[current.status];
    if (current.last_error) text += ` (${plainWords(current.last_error)})`;
  }
  return (
    <div className="print-action">
      <button type="button" onClick={() => create.mutate()} disabled={create.isPending}>
        {label}
      </button>
      {text && (
        <span
          role="status"
          className={current?.status === 'failed' || create.isError ? 'field-error' : 'muted'}
        >
          {text}
        </span>
      )}
    </div>
  );
}
