import type {
  BooksComparison,
  ConflictAction,
  HeldRecords,
  SyncConflict,
  SyncStatus,
} from '@pharmacy/contracts';

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

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "12 sales (MAIN-1096-000001 to MAIN-1096-000012), 1 cash session, 30 other records": what a till holds. */
export function heldText(held: HeldRecords): string {
  const range =
    held.first_invoice && held.last_invoice !== held.first_invoice
      ? ` (${held.first_invoice} to ${held.last_invoice})`
      : held.first_invoice
        ? ` (${held.first_invoice})`
        : '';
  const parts = [
    held.sales > 0 && `${plural(held.sales, 'sale')}${range}`,
    held.returns > 0 && plural(held.returns, 'return'),
    held.cash_sessions > 0 && plural(held.cash_sessions, 'cash session'),
  ].filter((p): p is string => Boolean(p));
  const other = held.total - held.sales - held.returns - held.cash_sessions;
  if (other > 0) parts.push(plural(other, parts.length ? 'other record' : 'record'));
  return parts.join(', ');
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
