import type { PurchaseOrderDetail } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextAreaField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import { allowedActions, orderCsv, STATUS_LABELS } from './lifecycle';
import { ReceiveForm } from './ReceiveForm';

/** One order: its items and receipts, the actions its state and the user's role allow, print and CSV. */
export function OrderDetail({ orderId }: { orderId: string }) {
  const me = useUser();
  const queryClient = useQueryClient();
  const [receiving, setReceiving] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const order = useQuery({
    queryKey: ['purchase-order', orderId],
    queryFn: () => api.purchaseOrders.get(orderId),
  });
  const updated = (o: PurchaseOrderDetail) => {
    queryClient.setQueryData(['purchase-order', orderId], o);
    queryClient.invalidateQueries({ queryKey: ['purchase-orders'] });
  };
  const send = useMutation({
    mutationFn: () => api.purchaseOrders.setStatus(orderId, { status: 'SENT' }),
    onSuccess: updated,
  });
  const o = order.data;
  const actions = o ? allowedActions(o.status, me.role) : [];
  return (
    <section aria-labelledby="po-detail-title">
      <div className="screen-header no-print">
        <h1 id="po-detail-title">Purchase orders</h1>
        <Link href="/">Back to the list</Link>
      </div>
      <ErrorNotice error={order.error ?? send.error} />
      {o && (
        <>
          <div className="screen-header">
            <h2>
              Order from {o.supplier_name} <span className="status-tag">{STATUS_LABELS[o.status]}</span>
            </h2>
            <div className="actions no-print">
              {actions.includes('send') && (
                <button
                  type="button"
                  className="primary"
                  disabled={send.isPending}
                  onClick={() => send.mutate()}
                >
                  Send to supplier
                </button>
              )}
              {actions.includes('receive') && !receiving && (
                <button type="button" className="primary" onClick={() => setReceiving(true)}>
                  Receive goods
                </button>
              )}
              {actions.includes('cancel') && (
                <button type="button" onClick={() => setCancelling(true)}>
                  Cancel order
                </button>
              )}
              <button type="button" onClick={() => downloadCsv(o)}>
                Export CSV
              </button>
              <button type="button" onClick={() => window.print()}>
                Print
              </button>
            </div>
          </div>
          <OrderFacts order={o} />
          {receiving && (
            <ReceiveForm
              order={o}
              onDone={(next) => {
                updated(next);
                setReceiving(false);
              }}
              onCancel={() => setReceiving(false)}
            />
          )}
          <OrderItems order={o} />
          <Receipts order={o} />
          {cancelling && <CancelDialog order={o} onClose={() => setCancelling(false)} onDone={updated} />}
        </>
      )}
    </section>
  );
}

function OrderFacts({ order: o }: { order: PurchaseOrderDetail }) {
  const money = useFormatMoney();
  return (
    <dl className="facts">
      <dt>Branch</dt>
      <dd>{o.branch_name}</dd>
      <dt>Expected</dt>
      <dd>{o.expected_date ?? '—'}</dd>
      <dt>Total</dt>
      <dd>{money(o.total_amount)}</dd>
      <dt>Raised</dt>
      <dd>{formatDateTime(o.created_at)}</dd>
      {o.sent_at && (
        <>
          <dt>Sent</dt>
          <dd>{formatDateTime(o.sent_at)}</dd>
        </>
      )}
      {o.received_at && (
        <>
          <dt>Received in full</dt>
          <dd>{formatDateTime(o.received_at)}</dd>
        </>
      )}
      {o.cancelled_at && (
        <>
          <dt>Cancelled</dt>
          <dd>
            {formatDateTime(o.cancelled_at)}
            {o.cancel_reason ? `: ${o.cancel_reason}` : ''}
          </dd>
        </>
      )}
      {o.notes && (
        <>
          <dt>Notes</dt>
          <dd>{o.notes}</dd>
        </>
      )}
    </dl>
  );
}

function OrderItems({ order: o }: { order: PurchaseOrderDetail }) {
  const money = useFormatMoney();
  return (
    <table aria-label="Ordered items">
      <thead>
        <tr>
          <th scope="col">Medicine</th>
          <th scope="col" className="num">
            Ordered
          </th>
          <th scope="col" className="num">
            Received
          </th>
          <th scope="col" className="num">
            Outstanding
          </th>
          <th scope="col" className="num">
            Unit cost
          </th>
          <th scope="col" className="num">
            Line total
          </th>
        </tr>
      </thead>
      <tbody>
        {o.items.map((i) => (
          <tr key={i.id}>
            <td>{i.medicine_name}</td>
            <td className="num">{i.ordered_qty}</td>
            <td className="num">{i.received_qty}</td>
            <td className="num">{i.outstanding_qty}</td>
            <td className="num">{money(i.agreed_unit_cost)}</td>
            <td className="num">{money(i.line_total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Receipts({ order: o }: { order: PurchaseOrderDetail }) {
  const money = useFormatMoney();
  if (o.receipts.length === 0) return null;
  const nameOf = (itemId: string) => o.items.find((i) => i.id === itemId)?.medicine_name ?? '';
  return (
    <>
      <h3>Receipts</h3>
      <table aria-label="Receipts">
        <thead>
          <tr>
            <th scope="col">Received</th>
            <th scope="col">Medicine</th>
            <th scope="col">Batch</th>
            <th scope="col">Expiry</th>
            <th scope="col" className="num">
              Quantity
            </th>
            <th scope="col" className="num">
              Unit cost
            </th>
          </tr>
        </thead>
        <tbody>
          {o.receipts.map((r) => (
            <tr key={r.id}>
              <td>{formatDateTime(r.received_at)}</td>
              <td>{nameOf(r.item_id)}</td>
              <td>{r.batch_number}</td>
              <td>{r.expiry_date}</td>
              <td className="num">{r.quantity}</td>
              <td className="num">{money(r.unit_cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function CancelDialog({
  order,
  onClose,
  onDone,
}: {
  order: PurchaseOrderDetail;
  onClose: () => void;
  onDone: (o: PurchaseOrderDetail) => void;
}) {
  const [reason, setReason] = useState('');
  const cancel = useMutation({
    mutationFn: () => api.purchaseOrders.setStatus(order.id, { status: 'CANCELLED', reason }),
    onSuccess: (o) => {
      onDone(o);
      onClose();
    },
  });
  return (
    <FormDialog
      title={`Cancel the order from ${order.supplier_name}`}
      onClose={onClose}
      onSubmit={() => cancel.mutate()}
      error={cancel.error}
      pending={cancel.isPending}
      submitLabel="Cancel order"
      cancelLabel="Keep the order"
    >
      <p>A cancelled order cannot be sent or received any more.</p>
      <TextAreaField label="Reason" value={reason} onChange={setReason} maxLength={500} />
    </FormDialog>
  );
}

/** Downloads the order as CSV, built in the browser from the order as shown. */
function downloadCsv(order: PurchaseOrderDetail) {
  const blob = new Blob([orderCsv(order)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `purchase-order-${order.supplier_name.replace(/[^\w-]+/g, '-')}-${order.created_at.slice(0, 10)}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
