import type { PrintableDocument } from './document-types';

/**
 * The document marked as a copy: a reprint, or every copy after the first of a job, prints "COPY" so only
 * one paper passes as the original. Labels and test pages have no original to protect.
 */
export function markCopy(document: PrintableDocument): PrintableDocument {
  if (document.kind === 'sale' || document.kind === 'credit-note' || document.kind === 'z-report')
    return { ...document, copy: true };
  return document;
}
