import type { SyncStatus } from '@pharmacy/contracts';

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
