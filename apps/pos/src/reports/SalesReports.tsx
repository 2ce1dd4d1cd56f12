import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { api } from '../api';
import { Chart } from '../charts/Chart';
import { paymentMethodName } from '@pharmacy/contracts/payment-methods';
import { paymentMix, seriesByDay } from '../charts/shape';
import { DataTable } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { useFormatMoney } from '../ui/money';
import { useOrgDateTime } from '../ui/org-time';
import { type ReportFilters, reportQuery } from './csv';
import { ReportSection, Totals } from './ReportParts';

export function SalesReportView({ filters }: { filters: ReportFilters }) {
  const report = useQuery({
    queryKey: ['reports', 'sales', filters],
    queryFn: () => api.reports.sales(reportQuery('sales', filters)),
    placeholderData: keepPreviousData,
  });
  const money = useFormatMoney();
  const fmt = useCallback((v: number) => money(v), [money]);
  const when = useOrgDateTime();
  const r = report.data;
  const byDay = useMemo(() => seriesByDay(r?.by_day ?? [], 'net_revenue'), [r?.by_day]);
  const mix = useMemo(() => paymentMix(r?.by_payment ?? []), [r?.by_payment]);
  const common = { kind: 'sales' as const, filters };
  return (
    <>
      <ErrorNotice error={report.error} />
      {r && (
        <Totals
          label="Sales totals"
          rows={[
            ['Sales', r.totals.sales_count],
            ['Gross revenue', money(r.totals.gross_revenue)],
            [`Returns (${r.totals.returns_count})`, money(r.totals.returns_total)],
            ['Net revenue', money(r.totals.net_revenue)],
            ['VAT (net of returns)', money(r.totals.vat)],
            ['Average sale', money(r.totals.average_sale)],
          ]}
        />
      )}
      <div className="chart-grid">
        <div className="card">
          {r && (
            <Chart
              title="Net revenue by day"
              kind="bars"
              categoryLabel="Day"
              valueLabel="Net revenue"
              data={byDay}
              formatValue={fmt}
            />
          )}
        </div>
        <div className="card">
          {r && (
            <Chart
              title="Payment mix"
              kind="bars"
              categoryLabel="Method"
              valueLabel="Amount"
              data={mix}
              formatValue={fmt}
            />
          )}
        </div>
      </div>
      <ReportSection title="Sales by day" section="by_day" {...common}>
        <DataTable
          label="Sales by day"
          rows={r?.by_day}
          rowKey={(d) => d.date}
          columns={[
            { key: 'date', header: 'Date', cell: (d) => d.date },
            { key: 'sales_count', header: 'Sales', cell: (d) => d.sales_count, align: 'end' },
            { key: 'gross_revenue', header: 'Gross', cell: (d) => money(d.gross_revenue), align: 'end' },
            { key: 'returns', header: 'Returns', cell: (d) => money(d.returns), align: 'end' },
            { key: 'net_revenue', header: 'Net revenue', cell: (d) => money(d.net_revenue), align: 'end' },
            { key: 'vat', header: 'VAT', cell: (d) => money(d.vat), align: 'end' },
          ]}
        />
      </ReportSection>
      <ReportSection title="Sales by payment method" section="by_payment" {...common}>
        <DataTable
          label="Sales by payment method"
          rows={r?.by_payment}
          rowKey={(p) => p.method}
          empty="No payments in this window."
          columns={[
            { key: 'method', header: 'Method', cell: (p) => paymentMethodName(p.method) },
            { key: 'sales_count', header: 'Sales', cell: (p) => p.sales_count, align: 'end' },
            { key: 'refunds', header: 'Refunds', cell: (p) => money(p.refunds), align: 'end' },
            { key: 'total', header: 'Kept', cell: (p) => money(p.total), align: 'end' },
          ]}
        />
      </ReportSection>
      <ReportSection title="Top sellers" section="top_selling" {...common}>
        <DataTable
          label="Top sellers"
          rows={r?.top_selling}
          rowKey={(t) => t.medicine_id}
          empty="No sales in this window."
          columns={[
            { key: 'name', header: 'Medicine', cell: (t) => t.medicine_name },
            { key: 'quantity', header: 'Quantity', cell: (t) => t.quantity, align: 'end' },
            { key: 'revenue', header: 'Revenue', cell: (t) => money(t.revenue), align: 'end' },
            { key: 'gross_profit', header: 'Gross profit', cell: (t) => money(t.gross_profit), align: 'end' },
            { key: 'margin', header: 'Margin', cell: (t) => `${t.margin_pct.toFixed(1)} %`, align: 'end' },
          ]}
        />
      </ReportSection>
      <ReportSection title="Recent sales" section="recent" {...common}>
        <DataTable
          label="Recent sales"
          rows={r?.recent}
          rowKey={(s) => s.id}
          empty="No sales in this window."
          columns={[
            { key: 'invoice', header: 'Invoice', cell: (s) => s.invoice_number },
            { key: 'seller', header: 'Seller', cell: (s) => s.pharmacist_name ?? '—' },
            { key: 'method', header: 'Payment', cell: (s) => paymentMethodName(s.payment_method) },
            { key: 'total', header: 'Total', cell: (s) => money(s.total_amount), align: 'end' },
            { key: 'sold_at', header: 'Sold at', cell: (s) => when(s.sold_at) },
          ]}
        />
      </ReportSection>
    </>
  );
}

export function PharmacistReportView({ filters }: { filters: ReportFilters }) {
  const report = useQuery({
    queryKey: ['reports', 'pharmacists', filters],
    queryFn: () => api.reports.byPharmacist(reportQuery('pharmacists', filters)),
    placeholderData: keepPreviousData,
  });
  const money = useFormatMoney();
  return (
    <>
      <ErrorNotice error={report.error} />
      <ReportSection title="Sales by pharmacist" kind="pharmacists" filters={filters}>
        <DataTable
          label="Sales by pharmacist"
          rows={report.data?.items}
          rowKey={(p) => `${p.user_id}:${p.branch_id}`}
          empty="No sales in this window."
          columns={[
            { key: 'name', header: 'Seller', cell: (p) => p.pharmacist_name ?? '—' },
            { key: 'branch', header: 'Branch', cell: (p) => p.branch_name },
            { key: 'sales_count', header: 'Sales', cell: (p) => p.sales_count, align: 'end' },
            { key: 'revenue', header: 'Revenue', cell: (p) => money(p.revenue), align: 'end' },
            { key: 'vat', header: 'VAT', cell: (p) => money(p.vat), align: 'end' },
            { key: 'average', header: 'Average sale', cell: (p) => money(p.average_sale), align: 'end' },
          ]}
        />
      </ReportSection>
    </>
  );
}
