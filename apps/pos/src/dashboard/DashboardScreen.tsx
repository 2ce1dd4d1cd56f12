import { allows, ORGANISATION_READERS } from '@pharmacy/contracts/roles';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { api } from '../api';
import { useBranches } from '../branch/useBranches';
import { Chart } from '../charts/Chart';
import { BooksWarning } from '../headoffice/BooksWarning';
import { formatShare, rankedBranches, seriesByDay } from '../charts/shape';
import { useUser } from '../session/SessionProvider';
import { DataTable } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField } from '../ui/fields';
import { useCurrencyExponents, useFormatMoney } from '../ui/money';
import { useOrgDateTime } from '../ui/org-time';
import { averageOf } from './figures';
import { DASHBOARD_CHART_MARK } from './marks';
import { useDashboard } from './useDashboard';

export function DashboardScreen() {
  const me = useUser();
  const orgWide = allows(ORGANISATION_READERS, me.role);
  const [branchId, setBranchId] = useState('');
  const branches = useBranches();
  const { summary, month, comparison } = useDashboard(orgWide ? branchId : '');
  const money = useFormatMoney();
  const fmt = useCallback((v: number) => money(v), [money]);
  const when = useOrgDateTime();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const exponent = useCurrencyExponents()(settings.data?.base_currency_code);
  const s = summary.data;
  const m = month.data;
  const revenue = useMemo(() => seriesByDay(s?.sparkline_30d ?? [], 'revenue'), [s?.sparkline_30d]);
  const ranking = useMemo(() => rankedBranches(comparison.data?.items ?? []), [comparison.data]);
  const branchName = branches.data?.items.find((b) => b.id === (s?.branch_id ?? ''))?.name;

  return (
    <section aria-labelledby="dashboard-title" className="dashboard">
      <div className="screen-header">
        <h1 id="dashboard-title">Dashboard</h1>
        <p className="muted" role="status">
          {s ? `${branchName ?? 'Whole organisation'} · ${s.date} (${s.timezone})` : 'Loading…'}
          {summary.dataUpdatedAt > 0 && ` · updated ${when(new Date(summary.dataUpdatedAt).toISOString())}`}
        </p>
      </div>
      {orgWide && (
        <search className="filters">
          <SelectField
            label="Branch"
            value={branchId}
            onChange={setBranchId}
            options={[
              { value: '', label: 'Whole organisation' },
              ...(branches.data?.items ?? []).map((b) => ({ value: b.id, label: b.name })),
            ]}
          />
        </search>
      )}
      <ErrorNotice error={summary.error ?? month.error ?? comparison.error} />
      <BooksWarning />
      <div className="kpi-grid">
        <Figures
          title="Today"
          rows={
            s && [
              ['Gross revenue', money(s.today_gross_revenue)],
              ['Returns', money(s.today_returns)],
              ['Net revenue', money(s.today_revenue)],
              ['Sales', String(s.today_sales_count)],
              ['Average basket', money(averageOf(s.today_gross_revenue, s.today_sales_count, exponent))],
              ['VAT', money(s.today_vat)],
            ]
          }
        />
        <Figures
          title="This month"
          rows={
            m && [
              ['Gross revenue', money(m.totals.gross_revenue)],
              ['Returns', money(m.totals.returns_total)],
              ['Net revenue', money(m.totals.net_revenue)],
              ['Sales', String(m.totals.sales_count)],
              ['Average basket', money(m.totals.average_sale)],
              ['VAT', money(m.totals.vat)],
            ]
          }
        />
        <Figures
          title="Stock"
          rows={
            s && [
              ['Low stock', String(s.low_stock_count)],
              ['Out of stock', String(s.out_of_stock_count)],
              ['Expiring in 30 days', String(s.expiring_30_count)],
              ['Expiring in 90 days', String(s.expiring_90_count)],
              ['Expired', String(s.expired_count)],
            ]
          }
        />
      </div>
      <div className="chart-grid">
        <div className="card">
          {s && (
            <Chart
              title="Revenue, last 30 days"
              kind="line"
              categoryLabel="Day"
              valueLabel="Revenue"
              data={revenue}
              formatValue={fmt}
              drawnMark={DASHBOARD_CHART_MARK}
            />
          )}
        </div>
        <div className="card">
          {comparison.data && (
            <Chart
              title="Branch comparison, last 30 days"
              kind="bars"
              categoryLabel="Branch"
              valueLabel="Revenue"
              data={ranking}
              formatValue={fmt}
            />
          )}
        </div>
      </div>
      <div className="card">
        <h2>Branches ranked by revenue, last 30 days</h2>
        <BranchTable items={comparison.data?.items} money={money} />
      </div>
      <div className="card">
        <h2>Top sellers this month</h2>
        <DataTable
          label="Top sellers"
          rows={m?.top_selling}
          rowKey={(r) => r.medicine_id}
          empty="No sales this month."
          columns={[
            { key: 'name', header: 'Medicine', cell: (r) => r.medicine_name },
            { key: 'quantity', header: 'Quantity', cell: (r) => r.quantity, align: 'end' },
            { key: 'revenue', header: 'Revenue', cell: (r) => money(r.revenue), align: 'end' },
            { key: 'margin', header: 'Margin', cell: (r) => formatShare(r.margin_pct), align: 'end' },
          ]}
        />
      </div>
    </section>
  );
}

function Figures({ title, rows }: { title: string; rows: Array<[string, string]> | undefined }) {
  return (
    <section className="card kpi" aria-label={title}>
      <h2>{title}</h2>
      <dl>
        {(rows ?? []).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className="num">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

type Ranked = {
  rank: number;
  branch_id: string;
  branch_name: string;
  revenue: string;
  sales_count: number;
  share_pct: number;
};

function BranchTable({ items, money }: { items: Ranked[] | undefined; money: (v: string) => string }) {
  return (
    <DataTable
      label="Branch comparison"
      rows={items}
      rowKey={(b) => b.branch_id}
      columns={[
        { key: 'rank', header: 'Rank', cell: (b) => b.rank, align: 'end' },
        { key: 'branch', header: 'Branch', cell: (b) => b.branch_name },
        { key: 'revenue', header: 'Revenue', cell: (b) => money(b.revenue), align: 'end' },
        { key: 'sales', header: 'Sales', cell: (b) => b.sales_count, align: 'end' },
        { key: 'share', header: 'Share', cell: (b) => formatShare(b.share_pct), align: 'end' },
      ]}
    />
  );
}
