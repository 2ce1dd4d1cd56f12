import type { SupplierInvoice } from '@pharmacy/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api';
import { useOrgToday } from '../purchasing/dates';
import { BranchPicker, useWorkingBranch } from '../branch/useWorkingBranch';
import { useUser } from '../session/SessionProvider';
import { type Column, DataTable } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import { dues, INVOICE_STATUS_LABELS, isOverdue } from './dues';
import { InvoiceDialog, PayDialog, PaymentsDialog } from './InvoiceDialogs';
import { canPayInvoices, canRecordInvoices } from './roles';

type Open = { kind: 'record' } | { kind: 'pay' | 'payments'; invoice: SupplierInvoice } | null;

/** A supplier's details and its invoices in the branch: what is owed, what is overdue, payments. */
export function SupplierDetail({ supplierId }: { supplierId: string }) {
  const me = useUser();
  const money = useFormatMoney();
  const today = useOrgToday();
  const { branchId, canPick } = useWorkingBranch();
  const [status, setStatus] = useState<'' | SupplierInvoice['status']>('');
  const [open, setOpen] = useState<Open>(null);
  const supplier = useQuery({
    queryKey: ['suppliers', 'one', supplierId],
    queryFn: () => api.suppliers.get(supplierId),
  });
  const invoices = useQuery({
    queryKey: ['supplier-invoices', supplierId, branchId, status],
    queryFn: () =>
      api.supplierFinance.invoices({
        supplier_id: supplierId,
        branch_id: branchId,
        status: status || undefined,
      }),
  });
  const s = supplier.data;
  const items = invoices.data?.items;
  const owed = dues(items ?? [], today);
  const columns: Column<SupplierInvoice>[] = [
    { key: 'invoice_no', header: 'Invoice', cell: (i) => i.invoice_no || '(no number)' },
    { key: 'created_at', header: 'Recorded', cell: (i) => formatDateTime(i.created_at) },
    {
      key: 'due_date',
      header: 'Due',
      cell: (i) =>
        isOverdue(i, today) ? (
          <strong className="field-error">{i.due_date} (overdue)</strong>
        ) : (
          (i.due_date ?? '—')
        ),
    },
    { key: 'total_amount', header: 'Total', align: 'end', cell: (i) => money(i.total_amount) },
    { key: 'paid_amount', header: 'Paid', align: 'end', cell: (i) => money(i.paid_amount) },
    { key: 'balance', header: 'Balance', align: 'end', cell: (i) => money(i.balance) },
    { key: 'status', header: 'Status', cell: (i) => INVOICE_STATUS_LABELS[i.status] },
    {
      key: 'actions',
      header: 'Actions',
      cell: (i) => (
        <span className="actions">
          {canPayInvoices(me.role) && i.status !== 'paid' && (
            <button
              type="button"
              aria-label={`Pay invoice ${i.invoice_no}`}
              onClick={() => setOpen({ kind: 'pay', invoice: i })}
            >
              Pay
            </button>
          )}
          <button
            type="button"
            aria-label={`Payments of invoice ${i.invoice_no}`}
            onClick={() => setOpen({ kind: 'payments', invoice: i })}
          >
            Payments
          </button>
        </span>
      ),
    },
  ];
  return (
    <section aria-labelledby="supplier-title">
      <div className="screen-header">
        <h1 id="supplier-title">Suppliers</h1>
        <Link href="/">Back to the list</Link>
      </div>
      <ErrorNotice error={supplier.error ?? invoices.error} />
      {s && (
        <>
          <h2>
            {s.name} {!s.is_active && <span className="status-tag">Inactive</span>}
          </h2>
          <dl className="facts">
            <dt>Tax number</dt>
            <dd>{s.tax_number || '—'}</dd>
            <dt>Contact</dt>
            <dd>{[s.contact_person, s.phone, s.email].filter(Boolean).join(' · ') || '—'}</dd>
            <dt>Lead time</dt>
            <dd>{s.lead_time_days} days</dd>
          </dl>
          <div className="screen-header">
            <h3>Invoices</h3>
            {canRecordInvoices(me.role) && (
              <button type="button" className="primary" onClick={() => setOpen({ kind: 'record' })}>
                Record invoice
              </button>
            )}
          </div>
          <p role="status" className="notice info">
            Due to {s.name}: <strong>{money(owed.due)}</strong>
            {owed.overdue !== '0' && (
              <>
                {' '}
                of which overdue: <strong>{money(owed.overdue)}</strong>
              </>
            )}
          </p>
          <div className="filters">
            <SelectField
              label="Invoice status"
              value={status}
              onChange={(v) => setStatus(v as typeof status)}
              options={[
                { value: '', label: 'All invoices' },
                ...(['unpaid', 'partial', 'paid'] as const).map((v) => ({
                  value: v,
                  label: INVOICE_STATUS_LABELS[v],
                })),
              ]}
            />
            {canPick && <BranchPicker />}
          </div>
          <DataTable
            label="Invoices"
            columns={columns}
            rows={items}
            rowKey={(i) => i.id}
            empty="No invoices of this supplier here."
          />
          <p className="muted">The 50 most recent invoices are shown.</p>
          {open?.kind === 'record' && (
            <InvoiceDialog supplier={s} branchId={branchId} onClose={() => setOpen(null)} />
          )}
          {open?.kind === 'pay' && <PayDialog invoice={open.invoice} onClose={() => setOpen(null)} />}
          {open?.kind === 'payments' && (
            <PaymentsDialog invoice={open.invoice} onClose={() => setOpen(null)} />
          )}
        </>
      )}
    </section>
  );
}
