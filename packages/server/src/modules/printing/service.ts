/**
 * The printing module's API for other modules (selling registers its document sources and enqueues receipts
 * from its sale transaction). The rules live in the files named by domain: printers, templates, jobs, worker.
 */
export { type EnqueuePrintJobInput, enqueuePrintJob } from './jobs';
export { type DocumentSource, type PrintJobForSource, registerDocumentSource } from './sources';
export { applyTemplate, effectiveTemplate } from './templates';
export { defaultPrinter } from './printers';
export { PrintWorker, startPrintWorker } from './worker';
