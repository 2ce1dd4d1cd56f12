import { sql } from 'kysely';
import {
  type PaperWidth,
  type PrintableDocument,
  type CodePage,
  type TransportAllowances,
  assertPrinterReady,
  backoffDelay,
  isPrinterError,
  markCopy,
  openTransport,
  printDocument,
  renderEscPos,
  shouldOpenDrawer,
} from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import { AppError } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { onPrintJobQueued, toPrintJob } from './jobs';
import type { PrintingOptions } from '../../printing-config';
import { documentSourceFor } from './sources';
import type { PrintJobsTable, PrintersTable } from '../../db/tables/printing';
import { applyTemplate, effectiveTemplate } from './templates';
import { canReadStatus, transportAllowances, transportConfig } from './transport';

/** Why an attempt failed: a PrinterError code (OFFLINE, PAPER_OUT, COVER_OPEN, TIMEOUT...) or one of ours. */
export class PrintFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

function toFailure(error: unknown): PrintFailure {
  if (error instanceof PrintFailure) return error;
  if (isPrinterError(error)) return new PrintFailure(error.code, error.message, error.retryable);
  const message = error instanceof Error ? error.message : String(error);
  return new PrintFailure('ERROR', message, true);
}

export type LaneOutcome<T> = { ran: true; value: T } | { ran: false; reason: 'TIMEOUT' | 'STOPPING' };

interface DirectJob {
  run(): Promise<void>;
  cancel(reason: 'TIMEOUT' | 'STOPPING'): void;
}

/** How long a printer that did not answer DLE EOT is printed to without asking first. */
const NO_STATUS_MEMORY_MS = 10 * 60_000;
/** At most this many due jobs are looked at per pass (the rest on the next pass). */
const BATCH = 100;
/** How long close() waits for attempts in flight; an interrupted job is re-queued at the next start. */
const STOP_GRACE_MS = 3_000;

/**
 * Drains the print_jobs queue in the till process. Woken at once when a job is enqueued, and by a timer for
 * retries and as a fallback poll. Jobs of one printer print one at a time in creation order; different
 * printers print in parallel, so a dead printer never holds up another. Each job's attempt:
 * claim (queued -> printing) -> load the document through its source -> apply the receipt template ->
 * render ESC/POS with the printer's settings -> ask its status where it can -> printDocument -> completed; or,
 * on failure, queued again after backoffDelay until maxAttempts, then failed with "CODE: message".
 */
export class PrintWorker {
  private stopped = false;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly lanes = new Map<string, Promise<void>>();
  /** Work that is not a print_jobs row (a test page, a drawer kick), waiting for its printer's lane. */
  private readonly direct = new Map<string, DirectJob[]>();
  private readonly noStatusUntil = new Map<string, number>();

  constructor(
    private readonly app: AppContext,
    readonly options: PrintingOptions,
  ) {}

  start(): void {
    this.unsubscribe = onPrintJobQueued(() => this.kick());
    this.running = this.recover()
      .catch((error: unknown) => this.app.log.error({ err: error }, 'print worker recovery failed'))
      .finally(() => {
        this.running = undefined;
        this.kick();
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    for (const queue of this.direct.values()) for (const job of queue) job.cancel('STOPPING');
    this.direct.clear();
    const inFlight = Promise.allSettled([this.running, ...this.lanes.values()]);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([inFlight, new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS)))]);
    clearTimeout(grace);
  }

  /**
   * Runs `work` on the printer's lane: after the job printing there now, before any print_jobs row the worker
   * claims next, and never beside another job of that printer, so its bytes and a receipt's never interleave.
   * A work that has not started within `waitMs` is dropped (a drawer kick must not fire minutes later) and the
   * answer says why it never ran; once started it runs to its own end.
   */
  runOnPrinter<T>(printerId: string, work: () => Promise<T>, waitMs: number): Promise<LaneOutcome<T>> {
    if (this.stopped) return Promise.resolve({ ran: false, reason: 'STOPPING' });
    return new Promise<LaneOutcome<T>>((resolve, reject) => {
      const queue = this.direct.get(printerId) ?? [];
      const job: DirectJob = {
        run: () => work().then((value) => resolve({ ran: true, value }), reject),
        cancel: (reason) => resolve({ ran: false, reason }),
      };
      const expire = setTimeout(() => {
        const at = queue.indexOf(job);
        if (at < 0) return;
        queue.splice(at, 1);
        job.cancel('TIMEOUT');
      }, waitMs);
      const run = job.run;
      job.run = () => {
        clearTimeout(expire);
        return run();
      };
      queue.push(job);
      this.direct.set(printerId, queue);
      this.runDirect(printerId);
    });
  }

  /** Starts the printer's next direct work when its lane is free; true when it did. */
  private runDirect(lane: string): boolean {
    if (this.lanes.has(lane)) return false;
    const queue = this.direct.get(lane);
    const job = queue?.shift();
    if (queue?.length === 0) this.direct.delete(lane);
    if (!job) return false;
    const run = job.run().finally(() => {
      this.lanes.delete(lane);
      if (!this.runDirect(lane)) this.kick();
    });
    this.lanes.set(lane, run);
    return true;
  }

  /** Runs a pass now, or right after the current one. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => {
        if (!this.stopped) this.app.log.error({ err: error }, 'print worker pass failed');
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Jobs a crashed process left `printing` go back to the queue (they may print twice: at least once). */
  private async recover(): Promise<void> {
    const at = nowIso();
    await this.app.db
      .updateTable('print_jobs')
      .set({ status: 'queued', locked_at: null, updated_at: at })
      .where('status', '=', 'printing')
      .where('locked_at', 'is not', null)
      .execute();
  }

  private async pass(): Promise<void> {
    clearTimeout(this.timer);
    const { db } = this.app;
    const now = nowIso();
    const due = await db
      .selectFrom('print_jobs')
      .selectAll()
      .where('status', '=', sql.lit('queued'))
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
      .orderBy('created_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    const defaults = new Map<string, PrintersTable | undefined>();
    for (const job of due) {
      if (this.stopped) return;
      let printer: PrintersTable | undefined;
      if (job.printer_id) {
        printer = await db
          .selectFrom('printers')
          .selectAll()
          .where('id', '=', job.printer_id)
          .executeTakeFirst();
      } else {
        if (!defaults.has(job.branch_id)) {
          const row = await db
            .selectFrom('printers')
            .selectAll()
            .where('branch_id', '=', job.branch_id)
            .where('is_default', '=', sql.lit(1))
            .where('is_active', '=', sql.lit(1))
            .executeTakeFirst();
          defaults.set(job.branch_id, row);
        }
        printer = defaults.get(job.branch_id);
      }
      const lane = printer?.id ?? `no-printer:${job.branch_id}`;
      if (this.lanes.has(lane) || this.direct.has(lane)) continue;
      // The lane is taken before the claim's await, so a test print asked meanwhile queues behind this job.
      let free: () => void = () => undefined;
      this.lanes.set(lane, new Promise<void>((resolve) => (free = resolve)));
      const freeLane = () => {
        this.lanes.delete(lane);
        free();
        if (!this.runDirect(lane)) this.kick();
      };
      const claimedAt = nowIso();
      const claim = await db
        .updateTable('print_jobs')
        .set({ status: 'printing', locked_at: claimedAt, updated_at: claimedAt })
        .where('id', '=', job.id)
        .where('status', '=', sql.lit('queued'))
        .executeTakeFirst()
        .catch((error: unknown) => {
          freeLane();
          throw error;
        });
      if (Number(claim.numUpdatedRows) !== 1) {
        freeLane();
        continue;
      }
      const run = this.attempt(job, printer)
        .catch((error: unknown) =>
          this.app.log.error({ err: error, job: job.id }, 'print job bookkeeping failed'),
        )
        .finally(freeLane);
      this.lanes.set(lane, run);
    }
    await this.scheduleNext();
  }

  /** Sleeps until the earliest retry is due, or the poll interval, whichever is sooner. */
  private async scheduleNext(): Promise<void> {
    if (this.stopped) return;
    const next = await this.app.db
      .selectFrom('print_jobs')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('status', '=', sql.lit('queued'))
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirst();
    const untilNext = next?.at ? Date.parse(next.at) - Date.now() : Number.POSITIVE_INFINITY;
    const delay = Math.max(5, Math.min(this.options.pollMs, untilNext));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), delay);
    this.timer.unref();
  }

  private async attempt(job: PrintJobsTable, printer: PrintersTable | undefined): Promise<void> {
    try {
      if (!printer)
        throw new PrintFailure(
          'NO_PRINTER',
          'No printer named and the branch has no active default printer',
          true,
        );
      if (!printer.is_active)
        throw new PrintFailure('PRINTER_INACTIVE', `Printer ${printer.name} is inactive`, false);
      const bytes = await this.render(job, printer);
      const allow = await transportAllowances(this.app);
      await this.assertReady(printer, allow);
      await printDocument({
        transport: transportConfig(printer, this.options.transportTimeoutMs, allow),
        bytes,
        copies: 1,
      });
      await this.finish(job, printer, undefined);
    } catch (error) {
      await this.finish(job, printer, toFailure(error));
    }
  }

  /**
   * The document's bytes, every copy in one stream; the drawer opens once, for a cash sale, never on a reprint.
   * A reprint prints COPY on every copy, and so does every copy after the first of a job.
   */
  private async render(job: PrintJobsTable, printer: PrintersTable): Promise<Buffer> {
    const source = documentSourceFor(job.document_type);
    if (!source)
      throw new PrintFailure('NO_SOURCE', `No document source is registered for ${job.document_type}`, true);
    const template = await effectiveTemplate(
      this.app.db,
      job.branch_id,
      job.document_type,
      printer.paper_width_mm,
    );
    let document: PrintableDocument;
    try {
      document = await source(this.app, { ...toPrintJob(job), status: 'printing', template });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof AppError && (error.status === 404 || error.status === 400);
      throw new PrintFailure(permanent ? 'DOCUMENT_UNAVAILABLE' : 'DOCUMENT_ERROR', message, !permanent);
    }
    document = applyTemplate(document, template);
    try {
      const options = {
        paper: `${printer.paper_width_mm}mm` as PaperWidth,
        commandSet: printer.command_set,
        codePage: (printer.code_page ?? undefined) as CodePage | undefined,
        language: printer.language ?? undefined,
      };
      const reprint = job.reprint_of !== null;
      const drawer = printer.open_drawer === 1 && !reprint && shouldOpenDrawer(document);
      const first = renderEscPos(reprint ? markCopy(document) : document, { ...options, openDrawer: drawer });
      if (job.copies === 1) return first;
      const copy = renderEscPos(markCopy(document), options);
      return Buffer.concat([first, ...Array.from({ length: job.copies - 1 }, () => copy)]);
    } catch (error) {
      throw new PrintFailure('RENDER_ERROR', error instanceof Error ? error.message : String(error), false);
    }
  }

  /**
   * Asks the printer (DLE EOT) before sending, so paper out or an open cover is reported as such instead of
   * the bytes vanishing into a printer that cannot print. A printer that does not answer is remembered and
   * printed to without asking for a while.
   */
  private async assertReady(printer: PrintersTable, allow: TransportAllowances): Promise<void> {
    if (!canReadStatus(printer) || (this.noStatusUntil.get(printer.id) ?? 0) > Date.now()) return;
    const transport = await openTransport(transportConfig(printer, this.options.statusTimeoutMs, allow));
    try {
      const status = await transport.readStatus?.().catch((error: unknown) => {
        if (isPrinterError(error) && (error.code === 'TIMEOUT' || error.code === 'IO')) {
          this.noStatusUntil.set(printer.id, Date.now() + NO_STATUS_MEMORY_MS);
          return undefined;
        }
        throw error;
      });
      if (status) assertPrinterReady(status);
    } finally {
      await transport.close().catch(() => undefined);
    }
  }

  private async finish(
    job: PrintJobsTable,
    printer: PrintersTable | undefined,
    failure: PrintFailure | undefined,
  ): Promise<void> {
    const at = nowIso();
    const attempts = job.attempts + 1;
    const update = (values: Partial<PrintJobsTable>) =>
      this.app.db
        .updateTable('print_jobs')
        .set({ ...values, attempts, locked_at: null, updated_at: at })
        .where('id', '=', job.id)
        .where('status', '=', 'printing')
        .execute();
    if (!failure) {
      await update({ status: 'completed', printed_at: at, next_attempt_at: null, last_error: null });
      return;
    }
    const lastError = `${failure.code}: ${failure.message}`.slice(0, 500);
    const retry = failure.retryable && attempts < this.options.maxAttempts && !this.stopped;
    if (retry) {
      const delay = backoffDelay(attempts - 1, {
        baseMs: this.options.retryBaseMs,
        maxMs: this.options.retryMaxMs,
      });
      await update({
        status: 'queued',
        last_error: lastError,
        next_attempt_at: new Date(Date.now() + delay).toISOString(),
      });
    } else if (failure.retryable && this.stopped) {
      // Shutting down: back to the queue for the next start, with this attempt counted.
      await update({ status: 'queued', last_error: lastError, next_attempt_at: null });
    } else {
      await update({ status: 'failed', last_error: lastError, next_attempt_at: null });
    }
    this.app.log.warn(
      { job: job.id, printer: printer?.id, code: failure.code, attempts, retry },
      `print job ${retry ? 'will retry' : 'failed'}: ${failure.message}`,
    );
  }
}

const workers = new WeakMap<AppContext, PrintWorker>();

/** The app's running print worker, if any (PRINT_WORKER=off, or not started yet: none). */
export const printWorkerOf = (app: AppContext): PrintWorker | undefined => workers.get(app);

/**
 * Starts the app's print worker once (PRINT_WORKER=off disables it) and registers its stop in app.closers.
 * Called by the server after it starts listening.
 */
export function startPrintWorker(app: AppContext): PrintWorker | undefined {
  const existing = workers.get(app);
  if (existing) return existing;
  const printing = app.config.printing;
  if (!printing.ok) {
    // Printing must never stop the till from selling: jobs stay queued (and visible) until this is fixed.
    app.log.error({ err: new Error(printing.problem) }, 'print worker not started');
    return undefined;
  }
  const { options } = printing;
  if (!options.worker) return undefined;
  const worker = new PrintWorker(app, options);
  workers.set(app, worker);
  app.closers.push(() => worker.stop());
  worker.start();
  return worker;
}
