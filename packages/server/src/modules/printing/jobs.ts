import { paginate } from '../../db/paginate';
import { sql } from 'kysely';
import {
  type CreatePrintJobRequest,
  PRINT_DOCUMENT_TYPES,
  PRINT_JOB_STATUSES,
  type PrintDocumentType,
  type PrintJob,
  type PrintJobStatus,
  type ReprintRequest,
} from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { afterCommit } from '../../db/after-commit';
import type { Db } from '../../db/connection';
import { type AuthUser, assertBranchAccess, scopeBranch } from '../../http/auth';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getBranchRow } from '../branches/service';
import type { PrintJobsTable } from '../../db/tables/printing';

export const toPrintJob = (r: PrintJobsTable): PrintJob => {
  const { locked_at: _locked, ...rest } = r;
  return { ...rest, document_type: r.document_type as PrintDocumentType };
};

// ---------------------------------------------------------------------------------------------------------
// Waking the worker
// ---------------------------------------------------------------------------------------------------------

type Wake = () => void;
const wakers = new Set<Wake>();

/** The worker subscribes here; returns the unsubscribe function. */
export function onPrintJobQueued(wake: Wake): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/** Wakes the workers once the enqueueing transaction has committed (a rolled-back job wakes nobody). */
function wakeWorkersAfterCommit(trx: Db): void {
  if (wakers.size === 0) return;
  afterCommit(trx, () => {
    for (const wake of wakers) wake();
  });
}

// ---------------------------------------------------------------------------------------------------------
// Enqueueing (the selling module's entry point)
// ---------------------------------------------------------------------------------------------------------

export interface EnqueuePrintJobInput {
  branchId: string;
  documentType: PrintDocumentType;
  /** The document's id: sale id for receipt/invoice, return id for credit_note, medicine id for label... */
  referenceId: string;
  /** The user the job is printed for (the cashier of the sale). */
  createdBy: string;
  /** Omitted or null: the branch's default printer at print time. */
  printerId?: string | null;
  /** 1 to 20; default 1. */
  copies?: number;
  /** Default `queued`; the legacy `printed` is stored as `completed`. */
  status?: PrintJobStatus | 'printed';
  reason?: string | null;
  reprintOf?: string | null;
}

/**
 * Adds a print job inside the caller's transaction (use it from a sale's transaction: the job exists if and
 * only if the sale committed). Never touches the printer: the worker prints after the commit, so a printer that
 * is off, unplugged or out of paper never blocks or fails the sale. Throws Invalid (400) for a bad input,
 * NotFound (404) for an unknown printer, Invalid for a printer of another branch or an inactive one.
 */
export async function enqueuePrintJob(trx: Db, input: EnqueuePrintJobInput): Promise<PrintJob> {
  const copies = input.copies ?? 1;
  const status: PrintJobStatus = input.status === 'printed' ? 'completed' : (input.status ?? 'queued');
  const reference = input.referenceId.trim();
  if (!(PRINT_DOCUMENT_TYPES as readonly string[]).includes(input.documentType))
    throw new Invalid(`document_type ${input.documentType} is not a printable document type.`, [
      { path: 'document_type', message: `must be one of ${PRINT_DOCUMENT_TYPES.join(', ')}` },
    ]);
  if (!(PRINT_JOB_STATUSES as readonly string[]).includes(status))
    throw new Invalid(`status ${status} is not a print job status.`, [
      { path: 'status', message: `must be one of ${PRINT_JOB_STATUSES.join(', ')}` },
    ]);
  if (!reference)
    throw new Invalid('reference_id must not be empty.', [
      { path: 'reference_id', message: 'must not be empty' },
    ]);
  if (!Number.isInteger(copies) || copies < 1 || copies > 20)
    throw new Invalid('copies must be a whole number from 1 to 20.', [
      { path: 'copies', message: 'must be a whole number from 1 to 20' },
    ]);
  const printerId = input.printerId ?? null;
  if (printerId !== null) {
    const printer = await trx
      .selectFrom('printers')
      .select(['branch_id', 'is_active', 'name'])
      .where('id', '=', printerId)
      .executeTakeFirst();
    if (!printer) throw new NotFound('Printer', printerId);
    if (printer.branch_id !== input.branchId)
      throw new Invalid(`Printer ${printer.name} belongs to another branch than the print job.`, [
        { path: 'printer_id', message: 'must be a printer of the same branch' },
      ]);
    if (!printer.is_active)
      throw new Invalid(`Printer ${printer.name} is inactive.`, [
        { path: 'printer_id', message: 'must be an active printer' },
      ]);
  }
  const at = nowIso();
  const row: PrintJobsTable = {
    id: newId(),
    branch_id: input.branchId,
    printer_id: printerId,
    document_type: input.documentType,
    reference_id: reference,
    copies,
    status,
    reason: input.reason?.trim() || null,
    created_by: input.createdBy,
    attempts: 0,
    last_error: null,
    next_attempt_at: null,
    locked_at: null,
    printed_at: status === 'completed' ? at : null,
    reprint_of: input.reprintOf ?? null,
    created_at: at,
    updated_at: at,
  };
  await trx.insertInto('print_jobs').values(row).execute();
  if (status === 'queued') wakeWorkersAfterCommit(trx);
  return toPrintJob(row);
}

// ---------------------------------------------------------------------------------------------------------
// The HTTP operations
// ---------------------------------------------------------------------------------------------------------

export async function createPrintJob(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  body: CreatePrintJobRequest,
): Promise<PrintJob> {
  const branchId = body.branch_id ?? user.branchId;
  assertBranchAccess(user, branchId, 'branch');
  await getBranchRow(app.db, branchId);
  return app.db.transaction().execute(async (trx) => {
    const job = await enqueuePrintJob(trx, {
      branchId,
      documentType: body.document_type,
      referenceId: body.reference_id,
      createdBy: user.id,
      printerId: body.printer_id,
      copies: body.copies,
      status: body.status,
      reason: body.reason,
    });
    await writeAudit(trx, actor, {
      action: 'print_job.create',
      entity: 'print_job',
      entityId: job.id,
      branchId,
      after: job,
    });
    return job;
  });
}

export async function getPrintJobRow(db: Db, id: string): Promise<PrintJobsTable> {
  const row = await db.selectFrom('print_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Print job', id);
  return row;
}

export async function getPrintJobFor(app: AppContext, user: AuthUser, id: string): Promise<PrintJobsTable> {
  const row = await getPrintJobRow(app.db, id);
  assertBranchAccess(user, row.branch_id, 'print job');
  return row;
}

export async function listPrintJobs(
  app: AppContext,
  user: AuthUser,
  f: {
    branch_id?: string;
    printer_id?: string;
    status?: string;
    document_type?: string;
    reference_id?: string;
    page: number;
    page_size: number;
  },
) {
  const branch = scopeBranch(user, f.branch_id);
  let q = app.db.selectFrom('print_jobs');
  if (branch) q = q.where('branch_id', '=', branch);
  if (f.printer_id) q = q.where('printer_id', '=', f.printer_id);
  if (f.status) q = q.where('status', '=', f.status as PrintJobStatus);
  if (f.document_type) q = q.where('document_type', '=', f.document_type);
  if (f.reference_id) q = q.where('reference_id', '=', f.reference_id);
  const found = await paginate(q, f, (q) =>
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return { ...found, items: found.items.map(toPrintJob) };
}

/** A new queued job for the same document; the original printer unless another is named or it is gone. */
export async function reprintJob(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  body: ReprintRequest,
): Promise<PrintJob> {
  const original = await getPrintJobFor(app, user, id);
  let printerId = body.printer_id;
  if (printerId === undefined && original.printer_id !== null) {
    const printer = await app.db
      .selectFrom('printers')
      .select('is_active')
      .where('id', '=', original.printer_id)
      .executeTakeFirst();
    printerId = printer?.is_active ? original.printer_id : null;
  }
  return app.db.transaction().execute(async (trx) => {
    const job = await enqueuePrintJob(trx, {
      branchId: original.branch_id,
      documentType: original.document_type as PrintDocumentType,
      referenceId: original.reference_id,
      createdBy: user.id,
      printerId,
      copies: body.copies ?? 1,
      reason: body.reason ?? 'reprint',
      reprintOf: original.id,
    });
    await writeAudit(trx, actor, {
      action: 'print_job.reprint',
      entity: 'print_job',
      entityId: job.id,
      branchId: job.branch_id,
      after: job,
    });
    return job;
  });
}

/** Only a queued job can be cancelled; one the worker is printing, or has finished, answers 409. */
export async function cancelPrintJob(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
): Promise<PrintJob> {
  const before = await getPrintJobFor(app, user, id);
  const at = nowIso();
  return app.db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('print_jobs')
      .set({ status: 'cancelled', next_attempt_at: null, updated_at: at })
      .where('id', '=', id)
      .where('status', '=', sql.lit('queued'))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      const current = await trx
        .selectFrom('print_jobs')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      throw new Conflict(
        `Print job ${id} is ${current.status}; only a queued job can be cancelled.`,
        'NOT_CANCELLABLE',
      );
    }
    const after = await trx
      .selectFrom('print_jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await writeAudit(trx, actor, {
      action: 'print_job.cancel',
      entity: 'print_job',
      entityId: id,
      branchId: before.branch_id,
      before,
      after,
    });
    return toPrintJob(after);
  });
}
