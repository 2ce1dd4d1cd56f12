import type { PrintDocumentType, PrintJob, ReceiptTemplate } from '@pharmacy/contracts';
import type { PrintableDocument } from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import { NotFound } from '../../lib/errors';

/** What a document source receives: the job, and the receipt template the worker will apply afterwards. */
export interface PrintJobForSource extends PrintJob {
  template: ReceiptTemplate | null;
}

/**
 * Loads the document a job prints (a sale for receipt/invoice, a return for credit_note, a Z-report for
 * report, a medicine for label) and builds it with the hardware package's builders (buildSaleReceipt,
 * buildCreditNote, buildZReport, buildShelfLabel). Runs in the worker, outside any transaction, reading through
 * `app.db`. Throw an AppError with status 400/404 (e.g. NotFound) when the document can never be printed: the
 * job fails at once. Any other error is retried with backoff like a printer error.
 */
export type DocumentSource = (
  app: AppContext,
  job: PrintJobForSource,
) => Promise<PrintableDocument> | PrintableDocument;

const sources = new Map<PrintDocumentType, DocumentSource>();

/**
 * Registers the source of one document type (the latest registration wins). Returns a function that restores
 * the previous source, for tests.
 */
export function registerDocumentSource(documentType: PrintDocumentType, source: DocumentSource): () => void {
  const previous = sources.get(documentType);
  sources.set(documentType, source);
  return () => {
    if (sources.get(documentType) !== source) return;
    if (previous) sources.set(documentType, previous);
    else sources.delete(documentType);
  };
}

export const documentSourceFor = (documentType: string): DocumentSource | undefined =>
  sources.get(documentType as PrintDocumentType);

/** A print job prints only documents of its own branch, whoever enqueued it. */
export function assertJobBranch(job: PrintJobForSource, branchId: string, what: string): void {
  if (branchId !== job.branch_id) throw new NotFound(what, job.reference_id);
}
