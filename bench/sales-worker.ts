/**
 * generate:sales' row making on worker threads (node:worker_threads): each worker makes whole batches of sales
 * (bench/sales-maker.ts' blocks) as COPY text in transferable buffers, and the main thread only hands them to
 * PostgreSQL in order. This file is both the pool (main thread) and the worker's entry (started on itself; in
 * a bundle, on the bundle).
 */
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  type RowValues,
  SYNTHETIC_COLUMNS,
  SYNTHETIC_TABLES,
  type SyntheticTable,
} from '../packages/server/src/modules/reports/synthetic-sales';
import { bulkIds } from './bulk-ids';
import { CopyText, plainLine } from './copy-text';
import { blockSales, isoClock, makeBlock, type SalesPlan } from './sales-maker';

/** A batch to make: `blocks` blocks from `firstBlock`, each branch's invoice counter starting past `icv`. */
interface SalesTask {
  task: number;
  firstBlock: number;
  blocks: number;
  icv: Int32Array;
}

/** A batch made: its sales (numbers made, whether or not a sale fell in the future), lines and COPY text. */
export interface MadeBatch {
  task: number;
  sales: number;
  lines: number;
  tables: Array<{ table: SyntheticTable; chunks: Uint8Array[] }>;
}

type WorkerMessage = { type: 'progress'; task: number; made: number } | ({ type: 'done' } & MadeBatch);

/** The worker: makes each task it is sent, saying how far it is after every block. */
function serve(plan: SalesPlan): void {
  const port = parentPort!;
  const ids = bulkIds();
  const iso = isoClock();
  port.on('message', (t: SalesTask) => {
    const texts = new Map<SyntheticTable, CopyText>(
      SYNTHETIC_TABLES.map((table) => [table, new CopyText(SYNTHETIC_COLUMNS[table])]),
    );
    const emit = (table: SyntheticTable, values: RowValues) => texts.get(table)!.add(plainLine(values));
    let lines = 0;
    let made = 0;
    for (let b = t.firstBlock; b < t.firstBlock + t.blocks; b++) {
      lines += makeBlock(plan, b, t.icv, ids, iso, emit);
      made += blockSales(plan, b);
      port.postMessage({ type: 'progress', task: t.task, made } satisfies WorkerMessage);
    }
    const tables = [...texts].map(([table, text]) => ({ table, chunks: text.close() }));
    const done: WorkerMessage = { type: 'done', task: t.task, sales: made, lines, tables };
    port.postMessage(
      done,
      tables.flatMap((t) => t.chunks.map((c) => c.buffer as ArrayBuffer)),
    );
  });
}

if (!isMainThread && (workerData as { salesPlan?: SalesPlan } | undefined)?.salesPlan)
  serve((workerData as { salesPlan: SalesPlan }).salesPlan);

/**
 * A worker on this file. Run as TypeScript (tsx), the worker registers tsx's loader first: Node 20 does not
 * apply the main thread's `--import tsx` to a worker's own imports.
 */
function startWorker(data: { salesPlan: SalesPlan }): Worker {
  // Bundled as CommonJS (the PostgreSQL tests' generator), import.meta is empty: the bundle starts itself.
  const self = typeof __filename === 'string' ? pathToFileURL(__filename).href : import.meta.url;
  if (!self.endsWith('.ts')) return new Worker(new URL(self), { workerData: data });
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const code = `import(${api}).then(({ register }) => { register(); return import(${JSON.stringify(self)}); })`;
  return new Worker(code, { eval: true, workerData: data });
}

export interface WorkerRun {
  workers: number;
  /** The batches to make, in order: each `blocks` blocks, `icv` each branch's counter before it. */
  tasks: ReadonlyArray<{ firstBlock: number; blocks: number; icv: Int32Array }>;
  /** Stores a batch; called once per batch, in the tasks' order, one at a time. */
  store(batch: MadeBatch): Promise<void>;
  /** Sales made so far, counted in order: the batches stored and the part of the next one made. */
  progress(done: number): void;
  signal?: AbortSignal;
}

/**
 * Makes the tasks on `workers` threads (each given the next task whenever it has fewer than two, so none waits
 * for the main thread) and stores them in order. Stops when `signal` aborts (the batches stored stay) or a
 * worker fails; the workers end either way. Returns the lines made.
 */
export async function makeInWorkers(plan: SalesPlan, run: WorkerRun): Promise<number> {
  const workers = Array.from({ length: run.workers }, () => startWorker({ salesPlan: plan }));
  const queued = workers.map(() => 0);
  const made = new Map<number, number>();
  const results = new Map<number, MadeBatch>();
  let failure: unknown;
  let wake: (() => void) | undefined;
  let next = 0;
  let stored = 0;
  let lines = 0;
  workers.forEach((worker, w) => {
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') {
        made.set(m.task, m.made);
        if (m.task === next) run.progress(stored + m.made);
        return;
      }
      queued[w]!--;
      results.set(m.task, m);
      wake?.();
    });
    worker.on('error', (err) => {
      failure ??= err;
      wake?.();
    });
    worker.on('exit', (code) => {
      failure ??= new Error(`a sales worker exited (${code}) before its batches were made`);
      wake?.();
    });
  });
  const onAbort = () => wake?.();
  run.signal?.addEventListener('abort', onAbort);
  let dispatched = 0;
  const dispatch = () => {
    // At most two batches a worker not yet stored: made ahead of the store, never piling up in memory.
    while (dispatched < run.tasks.length && dispatched - next < 2 * workers.length) {
      const w = queued.indexOf(Math.min(...queued));
      const { firstBlock, blocks, icv } = run.tasks[dispatched]!;
      const task: SalesTask = { task: dispatched++, firstBlock, blocks, icv };
      queued[w]!++;
      workers[w]!.postMessage(task);
    }
  };
  try {
    while (next < run.tasks.length) {
      dispatch();
      while (!results.has(next)) {
        if (failure) throw failure;
        run.signal?.throwIfAborted();
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      run.signal?.throwIfAborted();
      const batch = results.get(next)!;
      results.delete(next);
      made.delete(next);
      await run.store(batch);
      lines += batch.lines;
      stored += batch.sales;
      next++;
      run.progress(stored + (made.get(next) ?? 0));
    }
    return lines;
  } finally {
    run.signal?.removeEventListener('abort', onAbort);
    for (const worker of workers) worker.removeAllListeners('exit');
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
