import type { PurchaseOrderDetail } from '@pharmacy/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { CellInput } from '../purchasing/CellInput';
import { closeOnEscape } from '../purchasing/escape';
import { useBaseExponent } from '../purchasing/money-input';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError } from '../ui/fields';
import { initialReceipt, type ReceiptDraft, receiptRequest } from './receive-lines';

/**
 * Receives goods against the order line by line: a quantity (blank or 0 leaves an item for a later
 * delivery), the batch number and expiry on the pack and the unit cost (the agreed one by default).
 */
export function ReceiveForm({
  order,
  onDone,
  onCancel,
}: {
  order: PurchaseOrderDetail;
  onDone: (o: PurchaseOrderDetail) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const exponent = useBaseExponent();
  const [drafts, setDrafts] = useState(() => initialReceipt(order));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [sentItems, setSentItems] = useState<string[]>([]);
  const receive = useMutation({
    mutationFn: (lines: Parameters<typeof api.purchaseOrders.receive>[1]['items']) =>
      api.purchaseOrders.receive(order.id, { items: lines }),
    onSuccess: (o) => {
      queryClient.invalidateQueries({ queryKey: ['medicine-search'] });
      onDone(o);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const built = receiptRequest(drafts, exponent);
    if ('problems' in built) return setProblems(built.problems);
    setProblems({});
    setSentItems(built.itemIds);
    receive.mutate(built.lines);
  };
  const problem = (itemId: string, field: keyof ReceiptDraft, serverField: string) => {
    const local = problems[`${itemId}.${field}`];
    if (local) return local;
    const n = sentItems.indexOf(itemId);
    return n < 0 ? undefined : fieldError(receive.error, `items.${n}.${serverField}`);
  };
  const set = (itemId: string, patch: Partial<ReceiptDraft>) =>
    setDrafts((d) => ({ ...d, [itemId]: { ...(d[itemId] as ReceiptDraft), ...patch } }));
  const open = order.items.filter((i) => drafts[i.id]);
  return (
    <form
      onSubmit={submit}
      onKeyDown={closeOnEscape(onCancel)}
      noValidate
      className="card receive-form"
      aria-labelledby="receive-title"
    >
      <h3 id="receive-title">Receive goods</h3>
      <ErrorNotice error={receive.error} />
      {problems.none && <p className="field-error">{problems.none}</p>}
      <table aria-label="Goods received" className="line-table">
        <thead>
          <tr>
            <th scope="col">Medicine</th>
            <th scope="col" className="num">
              Outstanding
            </th>
            <th scope="col" className="num">
              Received now
            </th>
            <th scope="col">Batch number</th>
            <th scope="col">Expiry</th>
            <th scope="col" className="num">
              Unit cost
            </th>
          </tr>
        </thead>
        <tbody>
          {open.map((i) => {
            const d = drafts[i.id] as ReceiptDraft;
            return (
              <tr key={i.id}>
                <td>{i.medicine_name}</td>
                <td className="num">{i.outstanding_qty}</td>
                <td className="num">
                  <CellInput
                    label={`Quantity received of ${i.medicine_name}`}
                    inputMode="numeric"
                    value={d.qty}
                    onChange={(v) => set(i.id, { qty: v })}
                    error={problem(i.id, 'qty', 'received_qty')}
                  />
                </td>
                <td>
                  <CellInput
                    label={`Batch number of ${i.medicine_name}`}
                    value={d.batch}
                    onChange={(v) => set(i.id, { batch: v })}
                    error={problem(i.id, 'batch', 'batch_number')}
                  />
                </td>
                <td>
                  <CellInput
                    label={`Expiry of ${i.medicine_name}`}
                    type="date"
                    value={d.expiry}
                    onChange={(v) => set(i.id, { expiry: v })}
                    error={problem(i.id, 'expiry', 'expiry_date')}
                  />
                </td>
                <td className="num">
                  <CellInput
                    label={`Unit cost of ${i.medicine_name}`}
                    inputMode="decimal"
                    value={d.cost}
                    onChange={(v) => set(i.id, { cost: v })}
                    error={problem(i.id, 'cost', 'unit_cost')}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="form-actions">
        <button type="button" onClick={onCancel}>
          Close without receiving
        </button>
        <button type="submit" className="primary" disabled={receive.isPending}>
          Record receipt
        </button>
      </div>
    </form>
  );
}
