import type { CashSession, ZReport } from '@pharmacy/contracts';
import { addDecimals, subtractDecimals } from '@pharmacy/contracts/money';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, NumberField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import { CASH_SESSION_KEY, useCashSession } from './useCashSession';
import { PastZReports } from './PastZReports';
import { ZReportView } from './ZReportView';

/** Opening, breaks and closing of the cashier's own cash session, and its Z-report. */
export function CashSessionScreen() {
  const queryClient = useQueryClient();
  const cash = useCashSession();
  const session = cash.data;
  const [float, setFloat] = useState(Number.NaN);
  const [counted, setCounted] = useState(Number.NaN);
  const [foreignCounted, setForeignCounted] = useState<Record<string, number>>({});
  const [closedId, setClosedId] = useState<string | null>(null);
  const refresh = (next: unknown) => queryClient.setQueryData(CASH_SESSION_KEY, next);

  const xReport = useQuery({
    queryKey: ['z-report', session?.id],
    queryFn: () => api.sessions.zReport(session?.id as string),
    enabled: !!session,
  });
  const zReport = useQuery({
    queryKey: ['z-report', closedId, 'final'],
    queryFn: () => api.sessions.zReport(closedId as string),
    enabled: !!closedId,
  });
  const open = useMutation({
    mutationFn: () => api.sessions.open({ opening_float: Number.isFinite(float) ? float : 0 }),
    onSuccess: (s) => {
      refresh(s);
      setClosedId(null);
    },
  });
  const pause = useMutation({
    mutationFn: () => (session?.status === 'on_break' ? api.sessions.endBreak() : api.sessions.startBreak()),
    onSuccess: refresh,
  });
  const foreign = useForeignCash(xReport.data);
  const close = useMutation({
    mutationFn: () =>
      api.sessions.close(
        foreign.length === 0
          ? { counted_cash: counted }
          : {
              counted_by_currency: [
                { currency_code: xReport.data?.currency_code ?? '', amount: counted },
                ...foreign.map((c) => ({
                  currency_code: c.code,
                  amount: foreignCounted[c.code] ?? Number.NaN,
                })),
              ],
            },
      ),
    onSuccess: (s) => {
      setClosedId(s.id);
      refresh(null);
      setCounted(Number.NaN);
      setForeignCounted({});
    },
  });

  const submitOpen = (e: FormEvent) => {
    e.preventDefault();
    open.mutate();
  };
  const allCounted =
    Number.isFinite(counted) && foreign.every((c) => Number.isFinite(foreignCounted[c.code]));
  const submitClose = (e: FormEvent) => {
    e.preventDefault();
    if (allCounted) close.mutate();
  };
  // Exact: the counted cash and the expected figure as decimal amounts, their difference in bigint. With
  // foreign cash in the drawer, the base-currency field is set against the base currency's own expected cash.
  const expected = xReport.data ? baseExpected(xReport.data, foreign.length > 0) : null;
  const countedText =
    Number.isFinite(counted) && counted >= 0 ? counted.toFixed(6).replace(/\.?0+$/, '') || '0' : null;
  const variance = expected !== null && countedText !== null ? subtractDecimals(countedText, expected) : null;

  return (
    <section aria-labelledby="screen-title" className="cash-session">
      <h1 id="screen-title">Cash session</h1>
      <ErrorNotice error={cash.error} />
      {closedId && (
        <>
          <p role="status" className="notice ok">
            Session closed. Keep the Z-report with the cash.
          </p>
          {zReport.data ? <ZReportView report={zReport.data} /> : <ErrorNotice error={zReport.error} />}
        </>
      )}
      {session === null && (
        <OpenSessionForm
          float={float}
          setFloat={setFloat}
          onSubmit={submitOpen}
          error={open.error}
          pending={open.isPending}
        />
      )}
      {session && (
        <div className="session-grid">
          <SessionNow
            session={session}
            salesCount={xReport.data?.sales_count ?? session.total_sales}
            onPause={() => pause.mutate()}
            error={pause.error}
            pending={pause.isPending}
          />
          <CloseSessionForm
            counted={counted}
            setCounted={setCounted}
            foreign={{
              list: foreign,
              counted: foreignCounted,
              set: (code, value) => setForeignCounted((c) => ({ ...c, [code]: value })),
            }}
            baseCode={xReport.data?.currency_code ?? ''}
            ready={allCounted}
            onSubmit={submitClose}
            error={close.error}
            pending={close.isPending}
            figures={{ expected, countedText, variance }}
          />
        </div>
      )}
      {session && xReport.data && <ZReportView report={xReport.data} />}
      <PastZReports closedNow={closedId} />
    </section>
  );
}

interface FormProps {
  onSubmit: (e: FormEvent) => void;
  error: unknown;
  pending: boolean;
}

function OpenSessionForm({
  float,
  setFloat,
  onSubmit,
  error,
  pending,
}: FormProps & { float: number; setFloat: (value: number) => void }) {
  return (
    <form className="card narrow" onSubmit={onSubmit} aria-label="Open a cash session" noValidate>
      <h2>Open a cash session</h2>
      <p className="muted">Count the starting cash in the drawer.</p>
      <ErrorNotice error={error} />
      <NumberField
        label="Opening float"
        value={float}
        onChange={setFloat}
        min={0}
        step="0.01"
        error={fieldError(error, 'opening_float')}
      />
      <button type="submit" className="primary big" disabled={pending}>
        Open session
      </button>
    </form>
  );
}

/** The open session's figures and the break button. */
function SessionNow({
  session,
  salesCount,
  onPause,
  error,
  pending,
}: {
  session: CashSession;
  salesCount: number;
  onPause: () => void;
  error: unknown;
  pending: boolean;
}) {
  const money = useFormatMoney();
  return (
    <section className="card" aria-labelledby="session-now">
      <h2 id="session-now">{session.status === 'on_break' ? 'On break' : 'Session open'}</h2>
      <dl className="figures">
        <div className="figure">
          <dt>Opened</dt>
          <dd>{formatDateTime(session.opened_at)}</dd>
        </div>
        <div className="figure">
          <dt>Opening float</dt>
          <dd>{money(session.opening_float)}</dd>
        </div>
        <div className="figure">
          <dt>Sales</dt>
          <dd>{salesCount}</dd>
        </div>
        <div className="figure">
          <dt>Breaks</dt>
          <dd>{session.break_minutes} min</dd>
        </div>
      </dl>
      <ErrorNotice error={error} />
      <button type="button" onClick={onPause} disabled={pending}>
        {session.status === 'on_break' ? 'End break' : 'Start break'}
      </button>
    </section>
  );
}

/** The counted cash against the expected figure (exact decimal strings), and the close button. */
function CloseSessionForm({
  counted,
  setCounted,
  foreign,
  baseCode,
  ready,
  onSubmit,
  error,
  pending,
  figures,
}: FormProps & {
  counted: number;
  setCounted: (value: number) => void;
  foreign: ForeignCounts;
  baseCode: string;
  ready: boolean;
  figures: { expected: string | null; countedText: string | null; variance: string | null };
}) {
  const money = useFormatMoney();
  const { expected, countedText, variance } = figures;
  const several = foreign.list.length > 0;
  return (
    <form className="card" onSubmit={onSubmit} aria-label="Close the session" noValidate>
      <h2>Close the session</h2>
      {several && <p className="muted">Count the drawer in each currency it holds.</p>}
      <ErrorNotice error={error} />
      <NumberField
        label={several ? `Counted cash ${baseCode}` : 'Counted cash'}
        value={counted}
        onChange={setCounted}
        min={0}
        step="0.01"
        error={fieldError(error, 'counted_cash') ?? fieldError(error, 'counted_by_currency.0.amount')}
      />
      {foreign.list.map((c, i) => (
        <NumberField
          key={c.code}
          label={`Counted cash ${c.code}`}
          hint={`Expected ${c.expected} ${c.code}`}
          value={foreign.counted[c.code] ?? Number.NaN}
          onChange={(value) => foreign.set(c.code, value)}
          min={0}
          step="0.01"
          error={fieldError(error, `counted_by_currency.${i + 1}.amount`)}
        />
      ))}
      <dl className="figures" aria-label="Cash check">
        <div className="figure">
          <dt>Expected</dt>
          <dd>{expected === null ? '…' : money(expected)}</dd>
        </div>
        <div className="figure">
          <dt>Counted</dt>
          <dd>{countedText === null ? '—' : money(countedText)}</dd>
        </div>
        <div className="figure">
          <dt>Variance</dt>
          <dd className={variance?.startsWith('-') ? 'field-error' : ''}>
            {variance === null ? '—' : money(variance)}
          </dd>
        </div>
      </dl>
      <button type="submit" className="primary big" disabled={pending || !ready}>
        Close session
      </button>
    </form>
  );
}

interface ForeignCounts {
  list: Array<{ code: string; expected: string }>;
  counted: Record<string, number>;
  set: (code: string, value: number) => void;
}

/**
 * The foreign currencies the drawer is counted in at close (issue 27.4): those this branch's drawers hold and
 * any other the session took in cash, each with the cash it should hold (rates merged).
 */
function useForeignCash(report: ZReport | undefined): Array<{ code: string; expected: string }> {
  const user = useUser();
  const branch = useQuery({
    queryKey: ['branch', user.branch_id],
    queryFn: () => api.branches.get(user.branch_id),
    staleTime: 60_000,
  });
  if (!report) return [];
  const expected = new Map<string, string>();
  for (const c of report.cash_by_currency)
    if (c.currency_code !== report.currency_code)
      expected.set(c.currency_code, addDecimals([expected.get(c.currency_code) ?? '0', c.expected]));
  for (const code of branch.data?.drawer_currencies ?? [])
    if (code !== report.currency_code && !expected.has(code)) expected.set(code, '0');
  return [...expected]
    .filter(([code, e]) => Number(e) !== 0 || (branch.data?.drawer_currencies ?? []).includes(code))
    .map(([code, e]) => ({ code, expected: e }));
}

/** The base currency's expected cash: the whole expected cash, or its own line when foreign cash is counted apart. */
function baseExpected(report: ZReport, apart: boolean): string {
  if (!apart) return report.expected_cash;
  return report.cash_by_currency
    .filter((c) => c.currency_code === report.currency_code)
    .reduce((a, c) => addDecimals([a, c.expected]), '0');
}
