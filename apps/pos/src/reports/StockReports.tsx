import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { DataTable } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { useFormatMoney } from '../ui/money';
import { type ReportFilters, reportQuery } from './csv';
import { ReportSection, Totals } from './ReportParts';

export function InventoryReportView({ filters }: { filters: ReportFilters }) {
  const report = useQuery({
    queryKey: ['reports', 'inventory', filters.branch_id],
    queryFn: () => api.reports.inventory(reportQuery('inventory', filters)),
    placeholderData: keepPreviousData,
  });
  const money = useFormatMoney();
  const r = report.data;
  const common = { kind: 'inventory' as const, filters };
  return (
    <>
      <ErrorNotice error={report.error} />
      {r && (
        <Totals
          label="Inventory totals"
          rows={[
            ['Medicines', r.total_medicines],
            ['Low stock', r.low_stock_count],
            ['Out of stock', r.out_of_stock_count],
            ['Units', r.total_units],
            ['Value at selling price', money(r.total_value)],
            ['Value at cost', money(r.total_cost_value)],
          ]}
        />
      )}
      <ReportSection title="Stock value by category" section="by_category" {...common}>
        <DataTable
          label="Stock value by category"
          rows={r?.by_category}
          rowKey={(c) => c.category ?? '(none)'}
          empty="No stock."
          columns={[
            { key: 'category', header: 'Category', cell: (c) => c.category ?? 'Uncategorised' },
            { key: 'medicines', header: 'Medicines', cell: (c) => c.medicine_count, align: 'end' },
            { key: 'units', header: 'Units', cell: (c) => c.units, align: 'end' },
            { key: 'value', header: 'Value', cell: (c) => money(c.value), align: 'end' },
          ]}
        />
      </ReportSection>
      <ReportSection title="Low stock" section="low_stock_list" {...common}>
        <DataTable
          label="Low stock"
          rows={r?.low_stock_list}
          rowKey={(m) => m.medicine_id}
          empty="Nothing is running low."
          columns={[
            { key: 'name', header: 'Medicine', cell: (m) => m.medicine_name },
            { key: 'category', header: 'Category', cell: (m) => m.category ?? '—' },
            { key: 'stock', header: 'In stock', cell: (m) => m.stock_quantity, align: 'end' },
            { key: 'threshold', header: 'Threshold', cell: (m) => m.low_stock_threshold, align: 'end' },
          ]}
        />
      </ReportSection>
    </>
  );
}

export function PurchasesReportView({ filters }: { filters: ReportFilters }) {
  const report = useQuery({
    queryKey: ['reports', 'purchases', filters],
    queryFn: () => api.reports.purchases(reportQuery('purchases', filters)),
    placeholderData: keepPreviousData,
  });
  const money = useFormatMoney();
  const r = report.data;
  const common = { kind: 'purchases' as const, filters };
  const counts = [
    {
      key: 'batches',
      header: 'Batches',
      cell: (x: { batch_count: number }) => x.batch_count,
      align: 'end' as const,
    },
    { key: 'units', header: 'Units', cell: (x: { units: number }) => x.units, align: 'end' as const },
    { key: 'spend', header: 'Spend', cell: (x: { spend: string }) => money(x.spend), align: 'end' as const },
  ];
  return (
    <>
      <ErrorNotice error={report.error} />
      {r && (
        <Totals
          label="Purchases totals"
          rows={[
            ['Spend', money(r.total_spend)],
            ['Batches received', r.batch_count],
            ['Units', r.units],
          ]}
        />
      )}
      <ReportSection title="Purchases by supplier" section="by_supplier" {...common}>
        <DataTable
          label="Purchases by supplier"
          rows={r?.by_supplier}
          rowKey={(s) => s.supplier_id ?? '(none)'}
          empty="No purchases in this window."
          columns={[{ key: 'supplier', header: 'Supplier', cell: (s) => s.supplier_name ?? '—' }, ...counts]}
        />
      </ReportSection>
      <ReportSection title="Purchases by medicine" section="by_medicine" {...common}>
        <DataTable
          label="Purchases by medicine"
          rows={r?.by_medicine}
          rowKey={(m) => m.medicine_id}
          empty="No purchases in this window."
          columns={[{ key: 'medicine', header: 'Medicine', cell: (m) => m.medicine_name }, ...counts]}
        />
      </ReportSection>
    </>
  );
}
