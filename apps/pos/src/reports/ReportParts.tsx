import type { ReactNode } from 'react';
import { csvUrl, datedName, type ReportFilters, type ReportKind } from './csv';
import { useCsvDownload } from './useCsvDownload';

/** A report's headline figures as a definition list. */
export function Totals({ label, rows }: { label: string; rows: Array<[string, ReactNode]> }) {
  return (
    <section className="card kpi" aria-label={label}>
      <dl>
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd className="num">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** One titled part of a report with its "Download CSV" button (the same section through the CSV route). */
export function ReportSection({
  title,
  kind,
  filters,
  section,
  children,
}: {
  title: string;
  kind: ReportKind;
  filters: ReportFilters;
  section?: string;
  children: ReactNode;
}) {
  return (
    <section className="card report-section" aria-label={title}>
      <div className="screen-header">
        <h2>{title}</h2>
        <DownloadCsv kind={kind} filters={filters} section={section} what={title} />
      </div>
      {children}
    </section>
  );
}

function DownloadCsv({
  kind,
  filters,
  section,
  what,
}: {
  kind: ReportKind;
  filters: ReportFilters;
  section: string | undefined;
  what: string;
}) {
  const { state, start } = useCsvDownload();
  return (
    <div className="download">
      <button
        type="button"
        aria-label={`Download CSV of ${what}`}
        disabled={state.phase === 'running'}
        onClick={() => start(csvUrl(kind, filters, section), (name) => datedName(name, kind, filters))}
      >
        Download CSV
      </button>
      {state.phase === 'running' && (
        <span role="status">
          <progress
            className="export"
            aria-label={`Export of ${what}`}
            value={state.total ? state.received : undefined}
            max={state.total ?? undefined}
          />{' '}
          {(state.received / 1024).toFixed(0)} KB received
        </span>
      )}
      {state.phase === 'done' && (
        <span role="status">
          Saved {state.fileName} ({state.rows} rows)
        </span>
      )}
      {state.phase === 'failed' && (
        <span role="alert" className="field-error">
          {state.message}
        </span>
      )}
    </div>
  );
}
