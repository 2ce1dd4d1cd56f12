import { allows, ORGANISATION_READERS } from '@pharmacy/contracts/roles';
import type { BookKind, BookKindComparison, BooksComparison } from '@pharmacy/contracts';
import { formatMinor } from '@pharmacy/contracts/money';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { useBranches } from '../branch/useBranches';
import { useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField, TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { useCurrencyExponents } from '../ui/money';
import { booksVerdict } from './sync-text';

const KIND_LABELS: Record<BookKind, string> = {
  sales: 'Sales',
  returns: 'Returns',
  customer_payments: 'Customer payments',
  supplier_payments: 'Supplier payments',
  fiscal_documents: 'Fiscal documents',
};

/** What differs in one kind, by the numbers a person looks up. */
function Differences({ k, tillName }: { k: BookKindComparison; tillName: string }) {
  if (k.agree) return <span>Same</span>;
  const parts: Array<[string, string[]]> = [
    ['Missing at head office', k.missing_at_central],
    [`Missing at ${tillName}`, k.missing_at_till],
    ['Held differently', k.differing],
  ];
  return (
    <ul className="plain">
      {parts
        .filter(([, list]) => list.length > 0)
        .map(([label, list]) => (
          <li key={label}>
            <strong>{label}:</strong> {list.join(', ')}
          </li>
        ))}
      {parts.every(([, list]) => list.length === 0) && <li>The totals differ.</li>}
    </ul>
  );
}

function Comparison({ c, money }: { c: BooksComparison; money: (minor: number) => string }) {
  const tillName = c.device_name ?? 'this till';
  const id = `books-${c.device_id ?? 'till'}`;
  return (
    <section aria-labelledby={id} className="card">
      <h2 id={id}>{c.device_name ?? 'This till'}</h2>
      <p role="status" className={!c.reported ? 'muted' : c.agree ? 'notice ok' : 'notice error'}>
        {booksVerdict(c)}
        {c.checked_at && <span className="muted"> · checked {formatDateTime(c.checked_at)}</span>}
      </p>
      {c.reported && (
        <table aria-label={`Books of ${tillName} and head office`}>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col" className="num">
                {c.device_name ? `${c.device_name}` : 'This till'}
              </th>
              <th scope="col" className="num">
                Head office
              </th>
              <th scope="col">Difference</th>
            </tr>
          </thead>
          <tbody>
            {c.kinds.map((k) => (
              <tr key={k.kind} className={k.agree ? undefined : 'row-warn'}>
                <th scope="row">{KIND_LABELS[k.kind]}</th>
                <td className="num">
                  {k.till.count} · {money(k.till.total)}
                </td>
                <td className="num">
                  {k.central.count} · {money(k.central.total)}
                </td>
                <td>
                  <Differences k={k} tillName={tillName} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * Back office → Books: a branch's day as each till holds it against head office's books, kind by kind, with
 * the records that differ. On a till the comparison is made now (with head office); on central, the latest
 * each till reported.
 */
export function BooksScreen() {
  const me = useUser();
  const orgWide = allows(ORGANISATION_READERS, me.role);
  const [date, setDate] = useState('');
  const [branchId, setBranchId] = useState('');
  const branches = useBranches();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const exponent = useCurrencyExponents()(settings.data?.base_currency_code);
  const valid = date === '' || /^\d{4}-\d{2}-\d{2}$/.test(date);
  const report = useQuery({
    queryKey: ['books', branchId, date],
    queryFn: () =>
      api.books.report({ ...(date && { date }), ...(orgWide && branchId && { branch_id: branchId }) }),
    enabled: valid,
    placeholderData: keepPreviousData,
    // Opening the screen compares afresh: a till asks head office now.
    refetchOnMount: 'always',
  });
  const r = report.data;
  const money = (minor: number) => formatMinor(minor, exponent);
  return (
    <section aria-labelledby="books-title">
      <div className="screen-header">
        <h1 id="books-title">Books</h1>
        <p className="muted">
          {r
            ? `${r.day}: each till's sales, returns, payments and fiscal documents against head office's.`
            : 'Loading…'}
        </p>
      </div>
      <search className="filters">
        <TextField label="Day" type="date" value={date || r?.day || ''} onChange={setDate} />
        {orgWide && r?.mode === 'central' && (
          <SelectField
            label="Branch"
            value={branchId}
            onChange={setBranchId}
            options={[
              { value: '', label: 'Every branch' },
              ...(branches.data?.items ?? []).map((b) => ({ value: b.id, label: b.name })),
            ]}
          />
        )}
        <button type="button" onClick={() => report.refetch()} disabled={report.isFetching}>
          {report.isFetching ? 'Comparing…' : 'Compare again'}
        </button>
      </search>
      <ErrorNotice error={report.error} />
      {r?.unavailable && <p className="notice warn">{r.unavailable}</p>}
      {r && r.pending > 0 && (
        <p className="notice info">
          {r.pending} {r.pending === 1 ? 'change still waits' : 'changes still wait'} to be sent to head
          office; what they record shows as missing at head office until they are sent.
        </p>
      )}
      {r?.comparisons.map((c) => (
        <Comparison key={c.device_id ?? 'till'} c={c} money={money} />
      ))}
    </section>
  );
}
