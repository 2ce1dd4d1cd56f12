import { useEffect, useState } from 'react';
import type { Counts } from './count-sheet';

const keyOf = (branchId: string, category: string) => `stock-count:${branchId}:${category || '*'}`;

function load(key: string): Counts {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '{}');
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter(([, v]) => typeof v === 'string'),
    ) as Counts;
  } catch {
    return {};
  }
}

/**
 * What has been counted on a sheet, kept in this till's storage as it is typed: a long count survives a
 * reload, a sign-out or a crash, and is cleared once submitted or discarded.
 */
export function useCountDraft(branchId: string, category: string) {
  const key = keyOf(branchId, category);
  const [counts, setCounts] = useState<Counts>(() => load(key));
  useEffect(() => setCounts(load(key)), [key]);
  useEffect(() => {
    if (Object.keys(counts).length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(counts));
  }, [key, counts]);
  return { counts, setCounts, clear: () => setCounts({}) };
}
