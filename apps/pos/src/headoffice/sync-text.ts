import type { BooksComparison, ConflictAction, SyncConflict, SyncStatus } from '@pharmacy/contracts';

/** Bootstrap progress as a fraction 0..1, or null when unknown (no total announced, or not loading). */
export function bootstrapFraction(status: SyncStatus | undefined): number | null {
  const p = status?.bootstrap_progress;
  if (!p || p.total === null || p.total <= 0) return null;
  return Math.min(1, p.received / p.total);
}

export function bootstrapText(status: SyncStatus | undefined): string {
  if (!status?.configured) return '';
  if (status.bootstrapped) return 'Ready to sell: head office data loaded.';
  const p = status.bootstrap_progress;
  if (p)
    return p.total === null
      ? `Loading head office data: ${p.received} rows received…`
      : `Loading head office data: ${p.received} of ${p.total} rows received…`;
  if (status.last_error) return `Waiting for head office: ${status.last_error.message}`;
  return 'Connecting to head office…';
}

/** One till's books against head office's, in a sentence. */
export function booksVerdict(c: BooksComparison): string {
  const name = c.device_name ?? 'This till';
  if (!c.reported) return `${name} has not reported this day yet.`;
  if (c.agree) return `The books agree: ${name} and head office hold the same records.`;
  const kinds = c.kinds.filter((k) => !k.agree).length;
  return `The books differ in ${kinds} ${kinds === 1 ? 'kind' : 'kinds'} of record: see below.`;
}

/** The button of a review action, as the side it is taken on says it. */
export function actionLabel(action: ConflictAction, side: 'central' | 'till'): string {
  if (action === 'retry') return side === 'till' ? 'Send again' : 'Apply now';
  if (action === 'keep_central') return "Keep head office's";
  if (action === 'keep_till') return "Keep this till's";
  return 'Dismiss…';
}

const RESOLUTIONS: Record<string, string> = {
  retry: 'Sent again',
  dismiss: 'Dismissed',
  keep_central: "Settled with head office's version",
  keep_till: "Settled with this till's version",
  merged: 'Settled with a merged version',
};

/** How a resolved item was settled, and when. */
export function resolutionText(c: SyncConflict): string {
  const how = RESOLUTIONS[c.resolution ?? ''] ?? 'Resolved';
  return `${how}${c.resolution_note ? `: ${c.resolution_note}` : ''}.`;
}
