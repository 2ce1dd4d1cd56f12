import type { Medicine, ParkedCart, SaleDetail } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { CustomerPicker } from '../customers/CustomerPicker';
import { PrintButton } from '../print/PrintButton';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import { type Cart, type CartCustomer, type CartLine, EMPTY_CART } from './cart';

export function CustomerDialog({
  current,
  onPick,
  onClose,
}: {
  current: CartCustomer | null;
  onPick: (c: CartCustomer | null) => void;
  onClose: () => void;
}) {
  return (
    <Dialog title="Customer" onClose={onClose}>
      {current && (
        <p className="notice info">
          Attached: <strong>{current.name}</strong>{' '}
          <button type="button" onClick={() => onPick(null)}>
            Detach customer
          </button>
        </p>
      )}
      <CustomerPicker
        onPick={(c) =>
          onPick({
            id: c.id,
            name: c.name,
            is_credit_allowed: c.is_credit_allowed,
            credit_limit: c.credit_limit,
            current_balance: c.current_balance,
          })
        }
      />
    </Dialog>
  );
}

export function SubstitutesDialog({
  medicine,
  onAdd,
  onClose,
}: {
  medicine: { id: string; name: string };
  onAdd: (m: Medicine) => void;
  onClose: () => void;
}) {
  const money = useFormatMoney();
  const subs = useQuery({
    queryKey: ['substitutes', medicine.id],
    queryFn: () => api.dispensing.genericSearch({ medicine_id: medicine.id }),
  });
  const add = useMutation({
    mutationFn: (medicineId: string) => api.medicines.get(medicineId),
    onSuccess: onAdd,
  });
  return (
    <Dialog title={`Substitutes for ${medicine.name}`} onClose={onClose}>
      <p>
        Same generic
        {subs.data
          ? ` (${[subs.data.generic_name, subs.data.strength, subs.data.form].filter(Boolean).join(', ')})`
          : ''}
        , in stock in this branch:
      </p>
      <ErrorNotice error={subs.error ?? add.error} />
      <table aria-label="Generic substitutes">
        <thead>
          <tr>
            <th scope="col">Medicine</th>
            <th scope="col">Price</th>
            <th scope="col">Stock</th>
            <th scope="col">
              <span className="visually-hidden">Add</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {subs.data?.items.map((s) => (
            <tr key={s.medicine_id}>
              <td>
                {s.name} <span className="muted">{[s.strength, s.form].filter(Boolean).join(' ')}</span>
                {s.requires_prescription && <span className="badge">Rx</span>}
              </td>
              <td>{money(s.selling_price)}</td>
              <td>{s.stock_quantity}</td>
              <td>
                <button
                  type="button"
                  onClick={() => add.mutate(s.medicine_id)}
                  disabled={add.isPending}
                  aria-label={`Add ${s.name}`}
                >
                  Add
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {subs.data && subs.data.items.length === 0 && <p>No substitute is in stock.</p>}
    </Dialog>
  );
}

export function ParkDialog({
  cart,
  onParked,
  onRecalled,
  onClose,
}: {
  cart: Cart;
  onParked: () => void;
  onRecalled: (cart: Cart) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const parked = useQuery({ queryKey: ['parked'], queryFn: () => api.parked.list({ page_size: 50 }) });
  const park = useMutation({
    mutationFn: () =>
      api.parked.park({
        label: label.trim() || `Cart ${new Date().toLocaleTimeString()}`,
        customer_id: cart.customer?.id ?? null,
        items: cart.lines.map((l) => ({
          medicine_id: l.medicine_id,
          quantity: l.quantity,
          name: l.name,
          ...(l.discount > 0 ? { discount: l.discount } : {}),
        })),
      }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['parked'] });
      onParked();
    },
  });
  const recall = useMutation({
    mutationFn: async (p: ParkedCart): Promise<Cart> => {
      const recalled = await api.parked.recall(p.id);
      const [medicines, customer] = await Promise.all([
        Promise.all(recalled.items.map((i) => api.medicines.get(i.medicine_id))),
        recalled.customer_id ? api.customers.get(recalled.customer_id) : Promise.resolve(null),
      ]);
      const lines: CartLine[] = recalled.items.map((item, i) => {
        const m = medicines[i] as Medicine;
        return {
          medicine_id: m.id,
          name: m.name,
          generic_name: m.generic_name,
          strength: m.strength,
          form: m.form,
          unit_price: m.selling_price,
          vat_category: m.vat_category,
          requires_prescription: m.requires_prescription,
          is_controlled: m.is_controlled,
          quantity: item.quantity,
          discount: item.discount ?? 0,
        };
      });
      return {
        ...EMPTY_CART,
        lines,
        customer: customer && {
          id: customer.id,
          name: customer.name,
          is_credit_allowed: customer.is_credit_allowed,
          credit_limit: customer.credit_limit,
          current_balance: customer.current_balance,
        },
      };
    },
    onSuccess: (next) => {
      queryClient.invalidateQueries({ queryKey: ['parked'] });
      onRecalled(next);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    park.mutate();
  };
  const busyCart = cart.lines.length > 0;
  return (
    <Dialog title="Park or recall a cart" onClose={onClose}>
      <form onSubmit={submit} noValidate aria-label="Park this cart">
        <ErrorNotice error={park.error} />
        <TextField
          label="Cart label"
          value={label}
          onChange={setLabel}
          placeholder="e.g. Lady in the red coat"
          maxLength={100}
        />
        <button type="submit" className="primary" disabled={!busyCart || park.isPending}>
          Park cart
        </button>
      </form>
      <h3>Parked carts</h3>
      <ErrorNotice error={parked.error ?? recall.error} />
      {busyCart && <p className="muted">Park or finish the current cart to recall another.</p>}
      <ul className="pick-list" aria-label="Parked carts">
        {parked.data?.items.map((p) => (
          <li key={p.id}>
            <span>
              <strong>{p.label}</strong>{' '}
              <span className="muted">
                {p.items.length} {p.items.length === 1 ? 'line' : 'lines'} · {p.user_name} ·{' '}
                {formatDateTime(p.created_at)}
              </span>
            </span>
            <button
              type="button"
              onClick={() => recall.mutate(p)}
              disabled={busyCart || recall.isPending}
              aria-label={`Recall ${p.label}`}
            >
              Recall
            </button>
          </li>
        ))}
        {parked.data?.items.length === 0 && <li className="muted">No parked carts.</li>}
      </ul>
    </Dialog>
  );
}

/** The receipt the printer prints (the server renders the one receipt model), shown as text. */
function ReceiptPreview({ saleId }: { saleId: string }) {
  const receipt = useQuery({ queryKey: ['sale-receipt', saleId], queryFn: () => api.sales.receipt(saleId) });
  return (
    <figure aria-label="Receipt preview" className="receipt-figure">
      {receipt.error ? (
        <ErrorNotice error={receipt.error} />
      ) : (
        <pre className="receipt">{receipt.data?.text ?? 'Loading the receipt…'}</pre>
      )}
    </figure>
  );
}

export function SaleDoneDialog({ sale, onClose }: { sale: SaleDetail; onClose: () => void }) {
  const money = useFormatMoney();
  return (
    <Dialog title={`Sale ${sale.invoice_number}`} onClose={onClose}>
      <p role="status" className="notice ok change-due">
        Change due: <strong>{money(sale.change_given, sale.change_currency_code)}</strong>{' '}
        {sale.change_currency_code}
      </p>
      <ReceiptPreview saleId={sale.id} />
      <div className="dialog-actions">
        <PrintButton documentType="receipt" referenceId={sale.id} label="Print receipt" />
        {/* Enter starts the next sale at once (the dialog focuses the element marked data-autofocus). */}
        <button type="button" className="primary" onClick={onClose} data-autofocus="">
          New sale
        </button>
      </div>
    </Dialog>
  );
}
