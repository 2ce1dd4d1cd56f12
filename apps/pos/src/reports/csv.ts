import { addDays, localDate } from '@pharmacy/contracts/time';
import { queryString } from '@pharmacy/contracts/client';

/** The filters every report shares: a window of local days (ignored by inventory) and a branch ('' = all). */
export interface ReportFilters {
  from_date: string;
  to_date: string;
  branch_id: string;
}

export type ReportKind = 'sales' | 'vat' | 'inventory' | 'purchases' | 'pharmacists';

const PATHS: Record<ReportKind, string> = {
  sales: '/reports/sales',
  vat: '/reports/vat',
  inventory: '/reports/inventory',
  purchases: '/reports/purchases',
  pharmacists: '/reports/sales/by-pharmacist',
};

/** What a report's JSON request and its CSV link both ask for: inventory has no date window. */
export function reportQuery(kind: ReportKind, f: ReportFilters): Record<string, string | undefined> {
  const branch = f.branch_id || undefined;
  if (kind === 'inventory') return { branch_id: branch };
  return { from_date: f.from_date || undefined, to_date: f.to_date || undefined, branch_id: branch };
}

/**
 * The URL of one CSV section of a report, through the existing CSV routes (`format=csv&section=…`);
 * fetched with the bearer token, never opened directly (a link cannot carry the token).
 */
export function csvUrl(kind: ReportKind, f: ReportFilters, section?: string): string {
  return `/api/v1${PATHS[kind]}${queryString({ ...reportQuery(kind, f), format: 'csv', section })}`;
}

/** The file name a CSV answer names in Content-Disposition, else a name made from the report. */
export function csvFileName(contentDisposition: string | null, fallback: string): string {
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(contentDisposition ?? '');
  const name = m?.[1] ? decodeURIComponent(m[1]) : fallback;
  return name.replace(/[\\/:*?"<>|]/g, '_');
}

/** A file name for a section: "sales-by_day-2026-10-27-to-2026-11-25.csv". */
export function datedName(base: string, kind: ReportKind, f: ReportFilters): string {
  const stem = base.replace(/\.csv$/i, '');
  return kind === 'inventory' || !f.from_date ? `${stem}.csv` : `${stem}-${f.from_date}-to-${f.to_date}.csv`;
}

/** Today's local date (YYYY-MM-DD) in a time zone, and the window of the last `days` days ending today. */
export function defaultWindow(timeZone: string | undefined, days = 30, now = new Date()): ReportFilters {
  const today = localDate(timeZone, now);
  return { from_date: addDays(today, -(days - 1)), to_date: today, branch_id: '' };
}
