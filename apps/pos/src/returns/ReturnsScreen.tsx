import type { SaleReturn } from '@pharmacy/contracts';
import { ApiError } from '@pharmacy/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Dispatch, type FormEvent, type SetStateAction, useRef, useState } from 'react';
import { api } from '../api';
import { PrintButton } from '../print/PrintButton';
import { newMutationId } from '../sell/cart';
import { paymentMethodName } from '@pharmacy/contracts/payment-methods';
import { useWedgeScanner } from '../sell/useWedgeScanner';
import { DraftNumberInput } from '../ui/DraftNumberInput';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField, TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';

const CONDITIONS = [
  { value: 'resaleable', label: 'Resaleable' },
  { value: 'damaged', label: 'Damaged' },
  { value: 'expired', label: 'Expired' },
] as const;
type Condition = (typeof CONDITIONS)[number]['value'];
const REFUND_METHODS = ['cash', 'card', 'mobile_money', 'credit'] as const;

/** Returns against an invoice: scan or type its number, choose what comes back, refund, credit note. */
export function ReturnsScreen() {
  const money = useFormatMoney();
  const queryClient = useQueryClient();
  const [invoice, setInvoice] = useState('');
  const [lookedUp, setLookedUp] = useState('');
  const [qty, setQty] = useState<Record<string, number>>({});
  const [condition, setCondition] = useState<Record<string, Condition>>({});
  const [refund, setRefund] = useState('');
  const [reason, setReason] = useState('');
  const [mutationId, setMutationId] = useState(newMutationId);
  const [done, setDone] = useState<SaleReturn | null>(null);
  /** Set from the first submit until its answer: a second click or Enter before React re-renders sends nothing. */
  const inFlight = useRef(false);
  const sale = useQuery({
    queryKey: ['return-lookup', lookedUp],
    queryFn: () => api.returns.lookup(lookedUp),
    enabled: !!lookedUp,
    retry: false,
  });
  const find = (number: string) => {
    const n = number.trim();
    if (!n) return;
    setInvoice(n);
    setLookedUp(n);
    setQty({});
    setCondition({});
    setRefund('');
    setDone(null);
    setMutationId(newMutationId());
    queryClient.invalidateQueries({ queryKey: ['return-lookup', n] });
  };
  useWedgeScanner((code) => find(code));
  const lines = (sale.data?.lines_returnable ?? []).filter((l) => l.returnable_quantity > 0);
  const chosen = lines.filter((l) => (qty[l.sale_line_id] ?? 0) > 0);
  const make = useMutation({
    mutationFn: () =>
      api.returns.create({
        sale_id: sale.data?.id as string,
        lines: chosen.map((l) => ({
          sale_line_id: l.sale_line_id,
          quantity: qty[l.sale_line_id] as number,
          condition: condition[l.sale_line_id] ?? 'resaleable',
        })),
        ...(refund ? { refund_method: refund as (typeof REFUND_METHODS)[number] } : {}),
        reason,
        client_mutation_id: mutationId,
      }),
    onSuccess: (r) => {
      // The return is made: the form goes away and the credit note shows; another return starts from a new look-up.
      setDone(r);
      setMutationId(newMutationId());
      setQty({});
      setCondition({});
      setRefund('');
      setReason('');
      setInvoice('');
      setLookedUp('');
      queryClient.invalidateQueries({ queryKey: ['return-lookup'] });
      queryClient.invalidateQueries({ queryKey: ['z-report'] });
      queryClient.invalidateQueries({ queryKey: ['cash-session'] });
    },
  });
  const submitFind = (e: FormEvent) => {
    e.preventDefault();
    find(invoice);
  };
  /** One return per click: the same client key on a retry, so the server answers the first credit note again. */
  const submitReturn = (e: FormEvent) => {
    e.preventDefault();
    if (inFlight.current || chosen.length === 0) return;
    inFlight.current = true;
    make.mutate(undefined, {
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };
  const notFound = sale.error instanceof ApiError && sale.error.status === 404;

  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Returns</h1>
      <form className="inline-add" onSubmit={submitFind} aria-label="Find a sale">
        <TextField
          label="Invoice number"
          value={invoice}
          onChange={setInvoice}
          hint="Scan the receipt or type the number"
        />
        <button type="submit" className="primary">
          Find sale
        </button>
      </form>
      {notFound ? (
        <p role="alert" className="notice error">
          No sale has the invoice number {lookedUp}.
        </p>
      ) : (
        <ErrorNotice error={sale.error} />
      )}
      {done && (
        <div role="status" className="notice ok">
          Credit note <strong>{done.credit_note_number}</strong>: {money(done.total_amount)}{' '}
          {done.currency_code} refunded by {paymentMethodName(done.refund_method).toLowerCase()}.
          <PrintButton documentType="credit_note" referenceId={done.id} label="Print credit note" />
        </div>
      )}
      {sale.data && (
        <form onSubmit={submitReturn} className="card" aria-label="Return lines" noValidate>
          <h2>
            Invoice {sale.data.invoice_number} · {formatDateTime(sale.data.sold_at)} ·{' '}
            {money(sale.data.total_amount)} {sale.data.currency_code}
          </h2>
          {lines.length === 0 ? (
            <p>Everything on this invoice has been returned.</p>
          ) : (
            <ReturnableLines
              lines={lines}
              qty={qty}
              setQty={setQty}
              condition={condition}
              setCondition={setCondition}
            />
          )}
          <div className="filters">
            <SelectField
              label="Refund method"
              value={refund}
              onChange={setRefund}
              options={[
                { value: '', label: 'As the sale was paid' },
                ...REFUND_METHODS.map((m) => ({ value: m, label: paymentMethodName(m) })),
              ]}
            />
            <TextField label="Reason" value={reason} onChange={setReason} maxLength={500} />
          </div>
          <ErrorNotice error={make.error} title="Nothing was returned." />
          <button type="submit" className="primary big" disabled={chosen.length === 0 || make.isPending}>
            {make.isPending ? 'Making the return…' : 'Make return'}
          </button>
        </form>
      )}
    </section>
  );
}

type ReturnableLine = Awaited<ReturnType<typeof api.returns.lookup>>['lines_returnable'][number];

/** The invoice's lines with units left to return: how many come back and in what condition. */
function ReturnableLines({
  lines,
  qty,
  setQty,
  condition,
  setCondition,
}: {
  lines: ReturnableLine[];
  qty: Record<string, number>;
  setQty: Dispatch<SetStateAction<Record<string, number>>>;
  condition: Record<string, Condition>;
  setCondition: Dispatch<SetStateAction<Record<string, Condition>>>;
}) {
  const money = useFormatMoney();
  return (
    <table aria-label="Returnable lines">
      <thead>
        <tr>
          <th scope="col">Medicine</th>
          <th scope="col">Sold</th>
          <th scope="col">Returnable</th>
          <th scope="col">Refund each</th>
          <th scope="col">Return</th>
          <th scope="col">Condition</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.sale_line_id}>
            <th scope="row">{l.medicine_name}</th>
            <td>{l.quantity}</td>
            <td>{l.returnable_quantity}</td>
            <td>{money(l.unit_refund)}</td>
            <td>
              <DraftNumberInput
                aria-label={`Return quantity of ${l.medicine_name}`}
                min={0}
                max={l.returnable_quantity}
                step={1}
                value={qty[l.sale_line_id] ?? 0}
                onCommit={(n) =>
                  setQty((q) => ({
                    ...q,
                    [l.sale_line_id]: Math.max(0, Math.min(l.returnable_quantity, Math.floor(n))),
                  }))
                }
              />
            </td>
            <td>
              <select
                aria-label={`Condition of ${l.medicine_name}`}
                value={condition[l.sale_line_id] ?? 'resaleable'}
                onChange={(e) =>
                  setCondition((c) => ({ ...c, [l.sale_line_id]: e.target.value as Condition }))
                }
              >
                {CONDITIONS.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
