import type { HeldRecords, SyncStatus } from '@pharmacy/contracts';

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
