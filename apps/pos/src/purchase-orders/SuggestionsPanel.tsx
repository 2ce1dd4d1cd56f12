import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { CellInput } from '../purchasing/CellInput';
import { closeOnEscape } from '../purchasing/escape';
import { ErrorNotice } from '../ui/ErrorNotice';
import { useFormatMoney } from '../ui/money';
import { type DraftLine, likelySupplier, parseQty, suggestionLine } from './order-draft';

/**
 * The branch's reorder suggestions (GET /purchase-orders/suggested: demand over 30 days, lead time,
 * what is already on order), each with an editable quantity; the ticked ones become order lines. With a
 * supplier chosen, the medicines last received from it start ticked; else every suggestion above 0.
 */
export function SuggestionsPanel({
  branchId,
  supplierId,
  onAdd,
  onClose,
}: {
  branchId: string;
  supplierId: string;
  onAdd: (lines: DraftLine[], supplierId: string | null) => void;
  onClose: () => void;
}) {
  const money = useFormatMoney();
  const suggestions = useQuery({
    queryKey: ['reorder-suggestions', branchId],
    queryFn: () => api.purchaseOrders.suggested({ branch_id: branchId }),
  });
  const [qty, setQty] = useState<Record<string, string>>({});
  const [ticked, setTicked] = useState<Record<string, boolean>>({});
  const items = suggestions.data?.items ?? [];
  const isTicked = (s: (typeof items)[number]) =>
    ticked[s.medicine_id] ?? (s.suggested_qty > 0 && (!supplierId || s.supplier_id === supplierId));
  const qtyOf = (s: (typeof items)[number]) => qty[s.medicine_id] ?? String(s.suggested_qty);
  const chosen = items.filter(isTicked);
  const bad = chosen.filter((s) => parseQty(qtyOf(s)) === null);

  return (
    <section aria-labelledby="suggestions-title" className="suggestions" onKeyDown={closeOnEscape(onClose)}>
      <h3 id="suggestions-title">Reorder suggestions</h3>
      <ErrorNotice error={suggestions.error} />
      {suggestions.data && items.length === 0 && (
        <p>No medicine of this branch is at or below its reorder level.</p>
      )}
      {items.length > 0 && (
        <table aria-label="Reorder suggestions" className="line-table">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Medicine</th>
              <th scope="col" className="num">
                In stock
              </th>
              <th scope="col" className="num">
                Reorder level
              </th>
              <th scope="col" className="num">
                Sold a day
              </th>
              <th scope="col" className="num">
                On order
              </th>
              <th scope="col">Last supplier</th>
              <th scope="col" className="num">
                Last cost
              </th>
              <th scope="col" className="num">
                Quantity
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((s) => (
              <tr key={s.medicine_id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Order ${s.medicine_name}`}
                    checked={isTicked(s)}
                    onChange={(e) => setTicked((t) => ({ ...t, [s.medicine_id]: e.target.checked }))}
                  />
                </td>
                <td>{s.medicine_name}</td>
                <td className="num">{s.stock_quantity}</td>
                <td className="num">{s.low_stock_threshold}</td>
                <td className="num">{s.avg_daily_sales}</td>
                <td className="num">{s.on_order_qty}</td>
                <td>{s.supplier_name ?? '—'}</td>
                <td className="num">{s.last_unit_cost === null ? '—' : money(s.last_unit_cost)}</td>
                <td className="num">
                  <CellInput
                    label={`Quantity to order of ${s.medicine_name}`}
                    value={qtyOf(s)}
                    inputMode="numeric"
                    onChange={(v) => setQty((q) => ({ ...q, [s.medicine_id]: v }))}
                    error={isTicked(s) && parseQty(qtyOf(s)) === null ? 'a whole number above 0' : undefined}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="form-actions">
        <button type="button" onClick={onClose}>
          Close suggestions
        </button>
        <button
          type="button"
          className="primary"
          disabled={chosen.length === 0 || bad.length > 0}
          onClick={() =>
            onAdd(
              chosen.map((s) => suggestionLine(s, qtyOf(s))),
              likelySupplier(chosen),
            )
          }
        >
          Add {chosen.length} to the order
        </button>
      </div>
    </section>
  );
}
