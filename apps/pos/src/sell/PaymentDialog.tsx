import type { SaleDetail } from '@pharmacy/contracts';
import { ApiError } from '@pharmacy/contracts/client';
import { formatMinor, minorToNumber, parseMoneyInput } from '@pharmacy/contracts/money';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { NumberField, SelectField } from '../ui/fields';
import { useCurrencyExponents } from '../ui/money';
import { tenderFigures } from './tender';
import { ApprovalRequest } from './ApprovalRequest';
import type { Cart } from './cart';

type Method = 'cash' | 'card' | 'mobile_money' | 'credit';
const METHODS: { method: Method; label: string }[] = [
  { method: 'cash', label: 'Cash received' },
  { method: 'card', label: 'Card' },
  { method: 'mobile_money', label: 'Mobile money' },
  { method: 'credit', label: 'On customer credit' },
];

/** The medicine a 409 INSUFFICIENT_STOCK names ("Name (id): wanted n, available m"). */
export function shortMedicine(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'INSUFFICIENT_STOCK') return null;
  const match = /\(([^)]+)\): wanted/.exec(error.errors[0]?.message ?? '');
  return match?.[1] ?? null;
}

/**
 * Split tender: cash, card, mobile money and customer credit, in the base or a foreign currency.
 * The sale is sent with the cart's checkout id, so a retry after a network failure never sells twice.
 */
export function PaymentDialog({
  cart,
  estimateTotalMinor,
  baseCurrency,
  onPaid,
  onOutOfStock,
  onClose,
}: {
  cart: Cart;
  /** The cart's estimated total in base-currency minor units (the same pricing as the sale). */
  estimateTotalMinor: number;
  baseCurrency: string;
  onPaid: (sale: SaleDetail) => void;
  onOutOfStock: (medicineId: string, detail: string) => void;
  onClose: () => void;
}) {
  const [currency, setCurrency] = useState(baseCurrency);
  // A manager's approval for a discount above the threshold, once granted (see ApprovalRequest).
  const [approvalId, setApprovalId] = useState<string | null>(null);
  const [amounts, setAmounts] = useState<Record<Method, number>>({
    cash: Number.NaN,
    card: Number.NaN,
    mobile_money: Number.NaN,
    credit: Number.NaN,
  });
  const currencies = useQuery({ queryKey: ['currencies'], queryFn: () => api.currency.list() });
  const foreign = !!currency && currency !== baseCurrency;
  const rate = useQuery({
    queryKey: ['fx', currency, baseCurrency],
    queryFn: () => api.currency.effective({ from: currency, to: baseCurrency }),
    enabled: foreign,
  });
  const exponentOf = useCurrencyExponents();
  const baseExp = exponentOf(baseCurrency);
  const cur = foreign ? currency : baseCurrency;
  const exp = exponentOf(cur);
  const tender = tenderFigures({
    estimateTotalMinor,
    rate: foreign ? rate.data?.rate : null,
    exp,
    baseExp,
    amounts,
  });
  const { due, remaining, change, paid, overpaid } = tender;
  const money = (minor: number | null) => (minor === null ? '…' : formatMinor(minor, exp));
  /** A base-currency line discount in the sale's currency, as the request number. */
  const convert = (baseAmount: number) => {
    const minor = parseMoneyInput(String(baseAmount), baseExp) ?? 0;
    return minorToNumber(tender.fromBase(minor), exp);
  };
  const methods = METHODS.filter((m) => m.method !== 'credit' || cart.customer?.is_credit_allowed);

  const pay = useMutation({
    mutationFn: () =>
      api.sales.create({
        items: cart.lines.map((l) => ({
          medicine_id: l.medicine_id,
          quantity: l.quantity,
          ...(l.discount > 0 ? { discount: convert(l.discount) } : {}),
        })),
        payment_lines: methods
          .filter((m) => (tender.minor[m.method] ?? 0) > 0)
          .map((m) => ({ method: m.method, amount: minorToNumber(tender.minor[m.method] ?? 0, exp) })),
        customer_id: cart.customer?.id ?? null,
        coupon_code: cart.coupon?.code ?? null,
        prescription_id: cart.prescription?.id ?? null,
        ...(cart.prescription?.emergency ? { emergency_supply: cart.prescription.emergency } : {}),
        ...(foreign ? { currency_code: currency } : {}),
        client_mutation_id: cart.checkout_id ?? undefined,
        approval_id: approvalId,
      }),
    onSuccess: onPaid,
    onError: (error) => {
      const medicineId = shortMedicine(error);
      if (medicineId) onOutOfStock(medicineId, (error as ApiError).detail);
    },
  });
  const set = (method: Method) => (value: number) => setAmounts((a) => ({ ...a, [method]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (paid <= 0 || remaining === null || remaining > 0 || overpaid || pay.isPending) return;
    pay.mutate();
  };

  return (
    <Dialog title="Payment" onClose={onClose}>
      <form onSubmit={submit} noValidate className="payment">
        <p className="amount-due" role="status">
          Total due: <strong>{money(due)}</strong> {cur}
        </p>
        {(currencies.data?.items.length ?? 0) > 1 && (
          <SelectField
            label="Currency"
            value={currency}
            onChange={setCurrency}
            options={(currencies.data?.items ?? [])
              .filter((c) => c.is_active)
              .map((c) => ({ value: c.code, label: `${c.code} ${c.name}` }))}
          />
        )}
        {foreign && rate.data && (
          <p className="muted">
            1 {currency} = {rate.data.rate} {baseCurrency} · {formatMinor(estimateTotalMinor, baseExp)}{' '}
            {baseCurrency} is {money(due)} {currency}
          </p>
        )}
        <ErrorNotice error={rate.error} />
        <TenderInputs
          methods={methods}
          amounts={amounts}
          set={set}
          exp={exp}
          rest={{ cash: tender.minor.cash ?? 0, card: tender.minor.card ?? 0, remaining }}
        />
        <TenderTotals money={money} paid={paid} remaining={remaining} change={change} />
        {overpaid && (
          <p role="alert" className="notice error">
            Card, mobile money and credit may not exceed the total; change is given from cash only.
          </p>
        )}
        {!(approvalId && pay.error instanceof ApiError && pay.error.code === 'APPROVAL_REQUIRED') && (
          <ErrorNotice error={pay.error} title="The sale was not recorded." />
        )}
        <ApprovalRequest
          error={pay.error}
          cart={cart}
          convert={convert}
          currency={foreign ? currency : undefined}
          onApproved={setApprovalId}
        />
        {pay.error instanceof ApiError && pay.error.isNetworkError && (
          <p className="muted">Trying again sends the same sale: it will never be recorded twice.</p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Back to cart
          </button>
          <button
            type="submit"
            className="primary big"
            disabled={pay.isPending || paid <= 0 || remaining === null || remaining > 0 || overpaid}
          >
            {pay.isPending ? 'Recording…' : pay.isError ? 'Try again' : 'Complete sale'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** One amount per tender (the first focused), and "rest in cash/by card" to fill what remains. */
function TenderInputs({
  methods,
  amounts,
  set,
  exp,
  rest,
}: {
  methods: typeof METHODS;
  amounts: Record<Method, number>;
  set: (method: Method) => (value: number) => void;
  exp: number;
  /** What cash and card hold now and what remains, in minor units of the sale's currency. */
  rest: { cash: number; card: number; remaining: number | null };
}) {
  const { remaining } = rest;
  return (
    <>
      <div className="tender-grid">
        {methods.map((m, i) => (
          <NumberField
            key={m.method}
            label={m.label}
            value={amounts[m.method]}
            onChange={set(m.method)}
            min={0}
            step={exp === 0 ? '1' : `0.${'0'.repeat(exp - 1)}1`}
            autoFocus={i === 0}
          />
        ))}
      </div>
      <div className="tender-actions">
        <button
          type="button"
          onClick={() => set('cash')(minorToNumber(rest.cash + (remaining ?? 0), exp))}
          disabled={!(remaining !== null && remaining > 0)}
        >
          Rest in cash
        </button>
        <button
          type="button"
          onClick={() => set('card')(minorToNumber(rest.card + (remaining ?? 0), exp))}
          disabled={!(remaining !== null && remaining > 0)}
        >
          Rest by card
        </button>
      </div>
    </>
  );
}

function TenderTotals({
  money,
  paid,
  remaining,
  change,
}: {
  money: (minor: number | null) => string;
  paid: number;
  remaining: number | null;
  change: number | null;
}) {
  return (
    <dl className="figures" aria-label="Tender">
      <div className="figure">
        <dt>Paid</dt>
        <dd>{money(paid)}</dd>
      </div>
      <div className="figure">
        <dt>Remaining</dt>
        <dd>{money(remaining)}</dd>
      </div>
      <div className="figure big-figure">
        <dt>Change</dt>
        <dd>
          <output aria-label="Change">{money(change)}</output>
        </dd>
      </div>
    </dl>
  );
}
