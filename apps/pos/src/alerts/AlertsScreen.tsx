import { localDate } from '@pharmacy/contracts/time';
import type { ExpiryAlert, LowStockAlert } from '@pharmacy/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { z } from 'zod';
import { api } from '../api';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useUser } from '../session/SessionProvider';
import { type Column, DataTable } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { EXPIRY_LABELS, expiryLevel } from '../stock/expiry';
import { useBranches } from '../branch/useBranches';
import { labelOf } from '@pharmacy/contracts/plain-words';
import { allows, STOCK_MANAGERS } from '@pharmacy/contracts/roles';

type Low = z.infer<typeof LowStockAlert>;
type Expiry = z.infer<typeof ExpiryAlert>;

/** Low stock and expiring or expired batches of the branch, each with a link to what to do about it. */
export function AlertsScreen() {
  const me = useUser();
  const canAct = allows(STOCK_MANAGERS, me.role);
  const { branchId } = useWorkingBranch();
  const branches = useBranches();
  const today = localDate(branches.data?.items.find((b) => b.id === branchId)?.timezone);
  const q = { branch_id: branchId, page_size: 100 };
  const low = useQuery({ queryKey: ['alerts', 'low', q], queryFn: () => api.alerts.lowStock(q) });
  const expiring = useQuery({
    queryKey: ['alerts', 'expiring', q],
    queryFn: () => api.alerts.expiring({ ...q, days: 90 }),
  });
  const expired = useQuery({ queryKey: ['alerts', 'expired', q], queryFn: () => api.alerts.expired(q) });
  const stockLink = (a: Expiry, action: string, label: string) => (
    <Link
      href={`~/back-office/stock/${a.medicine_id}?batch=${a.batch_id}&action=${action}`}
      aria-label={`${label} ${a.batch_number}`}
    >
      {label}
    </Link>
  );
  const lowColumns: Column<Low>[] = [
    {
      key: 'name',
      header: 'Medicine',
      cell: (a) => <Link href={`~/back-office/stock/${a.medicine_id}`}>{a.name}</Link>,
    },
    { key: 'generic', header: 'Generic name', cell: (a) => a.generic_name },
    { key: 'stock', header: 'Stock', align: 'end', cell: (a) => a.stock_quantity },
    { key: 'threshold', header: 'Threshold', align: 'end', cell: (a) => a.low_stock_threshold },
    {
      key: 'action',
      header: 'Action',
      cell: (a) =>
        canAct ? (
          <Link
            href={`~/back-office/purchase-orders?reorder=${a.medicine_id}`}
            aria-label={`Reorder ${a.name}`}
          >
            Reorder
          </Link>
        ) : (
          '—'
        ),
    },
  ];
  const expiryColumns: Column<Expiry>[] = [
    { key: 'name', header: 'Medicine', cell: (a) => a.medicine_name },
    { key: 'batch', header: 'Batch', cell: (a) => a.batch_number },
    {
      key: 'expiry',
      header: 'Expiry',
      cell: (a) => `${a.expiry_date} (${EXPIRY_LABELS[expiryLevel(a.expiry_date, today)]})`,
    },
    { key: 'days', header: 'Days left', align: 'end', cell: (a) => a.days_to_expiry },
    { key: 'qty', header: 'On hand', align: 'end', cell: (a) => a.qty_on_hand },
    { key: 'status', header: 'Status', cell: (a) => labelOf(a.regulator_status) },
    {
      key: 'action',
      header: 'Action',
      cell: (a) =>
        canAct ? (
          <span className="actions">
            {a.regulator_status === 'active' && stockLink(a, 'quarantined', 'Quarantine')}
            {stockLink(a, 'write-off', 'Write off')}
          </span>
        ) : (
          '—'
        ),
    },
  ];
  const rowClass = (a: Expiry) => `expiry-${expiryLevel(a.expiry_date, today)}`;
  return (
    <section aria-labelledby="alerts-title">
      <div className="screen-header">
        <h1 id="alerts-title">Alerts</h1>
        <BranchPicker />
      </div>
      <ErrorNotice error={low.error ?? expiring.error ?? expired.error} />
      <h2>Expired batches ({expired.data?.total ?? 0})</h2>
      <DataTable
        label="Expired batches"
        columns={expiryColumns}
        rows={expired.data?.items}
        rowKey={(a) => a.batch_id}
        empty="No expired stock."
        rowClassName={rowClass}
      />
      <h2>Expiring within 90 days ({expiring.data?.total ?? 0})</h2>
      <DataTable
        label="Expiring batches"
        columns={expiryColumns}
        rows={expiring.data?.items}
        rowKey={(a) => a.batch_id}
        empty="Nothing expires within 90 days."
        rowClassName={rowClass}
      />
      <h2>Low stock ({low.data?.total ?? 0})</h2>
      <DataTable
        label="Low stock"
        columns={lowColumns}
        rows={low.data?.items}
        rowKey={(a) => a.medicine_id}
        empty="No medicine is at or below its threshold."
      />
    </section>
  );
}
