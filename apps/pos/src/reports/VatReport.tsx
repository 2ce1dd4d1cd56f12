import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../api';
import { DataTable } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { useFormatMoney } from '../ui/money';
import { type ReportFilters, reportQuery } from './csv';
import { ReportSection, Totals } from './ReportParts';
import { vatRatesOfWindow, vatTotals } from './vat';

export function VatReportView({ filters }: { filters: ReportFilters }) {
  const report = useQuery({
    queryKey: ['reports', 'vat', filters],
    queryFn: () => api.reports.vat(reportQuery('vat', filters)),
    placeholderData: keepPreviousData,
  });
  const money = useFormatMoney();
  const months = report.data?.items;
  const rates = useMemo(() => (months ? vatRatesOfWindow(months) : undefined), [months]);
  const totals = useMemo(() => (months ? vatTotals(months) : undefined), [months]);
  return (
    <>
      <ErrorNotice error={report.error} />
      {totals && (
        <Totals
          label="VAT totals"
          rows={[
            ['Sales', totals.sales_count],
            ['VAT collected', money(totals.vat_collected)],
            ['Exempt sales (net)', money(totals.exempt)],
            ['Grand total (VAT included)', money(totals.grand_total)],
          ]}
        />
      )}
      <section className="card report-section" aria-label="VAT by rate">
        <h2>VAT by rate</h2>
        <DataTable
          label="VAT by rate"
          rows={rates}
          rowKey={(r) => String(r.rate)}
          empty="No VAT charged in this window."
          columns={[
            { key: 'rate', header: 'Rate', cell: (r) => `${r.rate} %`, align: 'end' },
            { key: 'taxable', header: 'Taxable (net)', cell: (r) => money(r.taxable), align: 'end' },
            { key: 'vat', header: 'VAT', cell: (r) => money(r.vat), align: 'end' },
          ]}
        />
      </section>
      <ReportSection title="VAT by month" kind="vat" filters={filters}>
        <DataTable
          label="VAT by month"
          rows={months}
          rowKey={(m) => m.month}
          columns={[
            { key: 'month', header: 'Month', cell: (m) => m.month },
            { key: 'sales_count', header: 'Sales', cell: (m) => m.sales_count, align: 'end' },
            {
              key: 'rates',
              header: 'Taxable / VAT per rate',
              cell: (m) =>
                m.by_rate.map((r) => `${r.rate} %: ${money(r.taxable)} / ${money(r.vat)}`).join('; ') || '—',
            },
            { key: 'exempt', header: 'Exempt', cell: (m) => money(m.exempt), align: 'end' },
            { key: 'vat', header: 'VAT collected', cell: (m) => money(m.vat_collected), align: 'end' },
            { key: 'total', header: 'Grand total', cell: (m) => money(m.grand_total), align: 'end' },
          ]}
        />
      </ReportSection>
    </>
  );
}
