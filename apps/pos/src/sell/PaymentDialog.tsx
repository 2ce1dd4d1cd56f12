import type { SaleDetail } from '@pharmacy/contracts';
import { ApiError } from '@pharmacy/contracts/client';
import {
  cashNeedsConfirmation,
  formatMinor,
  minorToNumber,
  parseMoneyInput,
  parseScaled,
  toBase,
} from '@pharmacy/contracts/money';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { NumberField, SelectField } from '../ui/fields';
import { useCurrencyExponents } from '../ui/money';
import { type TenderFigures, tenderFigures } from './tender';
import { ApprovalRequest } from './ApprovalRequest';
import { useBlockedScan } from './scan-guard';
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
  const changeGiven = useChangeCurrency({
    foreign,
    currency,
    baseCurrency,
    rate: rate.data?.rate,
    exp,
    baseExp,
  });
  /** A base-currency line discount in the sale's currency, as the request number. */
  const convert = (baseAmount: number) => {
    const minor = parseMoneyInput(String(baseAmount), baseExp) ?? 0;
    return minorToNumber(tender.fromBase(minor), exp);
  };
  const methods = METHODS.filter((m) => m.method !== 'credit' || cart.customer?.is_credit_allowed);

  const cash = tender.minor.cash ?? 0;
  const large = useCashConfirmation(cash, due, cur, exp);
  const request = () => ({
    ...saleRequest(cart, methods, tender, exp, convert),
    ...(foreign ? { currency_code: currency } : {}),
    approval_id: approvalId,
  });
  const pay = usePaySale(request, onPaid, onOutOfStock);
  const set = (method: Method) => (value: number) => setAmounts((a) => ({ ...a, [method]: value }));
  const invalid = Object.keys(tender.problems).length > 0;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (paid <= 0 || remaining === null || remaining > 0 || overpaid || invalid || pay.isPending) return;
    if (large.needed) large.ask();
    else pay.mutate(large.confirmed);
  };

  return (
    <Dialog title="Payment" onClose={onClose}>
      <form onSubmit={submit} noValidate className="payment">
        <p className="amount-due" role="status">
          Total due: <strong>{money(due)}</strong> {cur}
        </p>
        <CurrencyChoice
          currencies={currencies.data?.items ?? []}
          currency={currency}
          setCurrency={setCurrency}
          note={
            foreign && rate.data
              ? `1 ${currency} = ${rate.data.rate} ${baseCurrency} · ${formatMinor(estimateTotalMinor, baseExp)} ${baseCurrency} is ${money(due)} ${currency}`
              : null
          }
        />
        <ErrorNotice error={rate.error} />
        <ScanBlockedNotice />
        <TenderInputs
          methods={methods}
          amounts={amounts}
          set={set}
          exp={exp}
          problems={tender.problems}
          rest={{ cash: tender.minor.cash ?? 0, card: tender.minor.card ?? 0, remaining }}
        />
        <TenderTotals money={money} paid={paid} remaining={remaining} change={changeGiven.text(change)} />
        {changeGiven.inBase && (
          <p className="muted" role="note">
            Change is given in {baseCurrency}: this till's drawer holds no {currency}.
          </p>
        )}
        {large.asking && (
          <LargeCashConfirm
            text={`Cash received ${money(cash)} ${cur} is far more than the total of ${money(due)}. Is that what the customer handed over?`}
            confirmLabel={`Yes, ${money(cash)} received`}
            onConfirm={() => {
              large.confirm();
              pay.mutate(true);
            }}
          />
        )}
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
        <PaymentActions
          onClose={onClose}
          pending={pay.isPending}
          failed={pay.isError}
          ready={paid > 0 && remaining === 0 && !overpaid && !invalid}
        />
      </form>
    </Dialog>
  );
}

/** Records the sale (a large cash tender once confirmed); a short medicine opens its substitutes. */
function usePaySale(
  request: () => ReturnType<typeof saleRequest> & { currency_code?: string; approval_id: string | null },
  onPaid: (sale: SaleDetail) => void,
  onOutOfStock: (medicineId: string, detail: string) => void,
) {
  return useMutation({
    mutationFn: (confirmLargeCash: boolean) =>
      api.sales.create({ ...request(), ...(confirmLargeCash ? { confirm_large_cash: true } : {}) }),
    onSuccess: onPaid,
    onError: (error) => {
      const medicineId = shortMedicine(error);
      if (medicineId) onOutOfStock(medicineId, (error as ApiError).detail);
    },
  });
}

/** The sale's currency, when more than one is active, and its rate against the base currency. */
function CurrencyChoice({
  currencies,
  currency,
  setCurrency,
  note,
}: {
  currencies: ReadonlyArray<{ code: string; name: string; is_active: boolean }>;
  currency: string;
  setCurrency: (code: string) => void;
  note: string | null;
}) {
  return (
    <>
      {currencies.length > 1 && (
        <SelectField
          label="Currency"
          value={currency}
          onChange={setCurrency}
          options={currencies
            .filter((c) => c.is_active)
            .map((c) => ({ value: c.code, label: `${c.code} ${c.name}` }))}
        />
      )}
      {note && <p className="muted">{note}</p>}
    </>
  );
}

/** The sale's lines and tenders as the request sends them (checkout id: a retry never sells twice). */
function saleRequest(
  cart: Cart,
  methods: typeof METHODS,
  tender: TenderFigures,
  exp: number,
  convert: (baseAmount: number) => number,
) {
  return {
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
    ...(cart.will_call ? { will_call_id: cart.will_call.id, collected_by: cart.will_call.collector } : {}),
    client_mutation_id: cart.client_mutation_id ?? undefined,
  };
}

/**
 * The currency change is given in (issue 27.4): the sale's when this branch's drawer holds it, else the base
 * currency, converted at the sale's rate as the server does.
 */
function useChangeCurrency(p: {
  foreign: boolean;
  currency: string;
  baseCurrency: string;
  rate: string | undefined;
  exp: number;
  baseExp: number;
}) {
  const user = useUser();
  const branch = useQuery({
    queryKey: ['branch', user.branch_id],
    queryFn: () => api.branches.get(user.branch_id),
    staleTime: 60_000,
  });
  const inBase = p.foreign && !(branch.data?.drawer_currencies ?? []).includes(p.currency);
  const text = (change: number | null) => {
    if (change === null) return '…';
    if (!inBase) return formatMinor(change, p.exp);
    if (!p.rate) return '…';
    return `${formatMinor(toBase(change, parseScaled(p.rate), p.exp, p.baseExp), p.baseExp)} ${p.baseCurrency}`;
  };
  return { inBase, text };
}

/**
 * Cash far above the total (contracts' `cashNeedsConfirmation`: 20x the total, never below one largest note,
 * never above a hundred) is asked about once; the confirmation holds for that amount only.
 */
function useCashConfirmation(cash: number, due: number | null, currency: string, exp: number) {
  const [confirmedCash, setConfirmedCash] = useState<number | null>(null);
  const [asking, setAsking] = useState(false);
  const confirmed = confirmedCash !== null && confirmedCash === cash;
  const needed = due !== null && cashNeedsConfirmation(cash, due, currency, exp) && !confirmed;
  return {
    confirmed,
    needed,
    asking: asking && needed,
    ask: () => setAsking(true),
    confirm: () => {
      setConfirmedCash(cash);
      setAsking(false);
    },
  };
}

/** Says that a scan was taken back out of an amount field while the dialog is open. */
function ScanBlockedNotice() {
  const code = useBlockedScan();
  if (!code) return null;
  return (
    <p role="alert" className="notice error">
      A scan ({code}) was read while paying: it was not taken as an amount. To sell that item, go back to the
      cart.
    </p>
  );
}

function PaymentActions(props: { onClose: () => void; pending: boolean; failed: boolean; ready: boolean }) {
  return (
    <div className="dialog-actions">
      <button type="button" onClick={props.onClose}>
        Back to cart
      </button>
      <button type="submit" className="primary big" disabled={props.pending || !props.ready}>
        {props.pending ? 'Recording…' : props.failed ? 'Try again' : 'Complete sale'}
      </button>
    </div>
  );
}

/** A cash tender far above the total (a scanned barcode, a slip of the finger) is confirmed before it is sent. */
function LargeCashConfirm({
  text,
  confirmLabel,
  onConfirm,
}: {
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  // On a small screen the question sits below the fold of the dialog: bring it into view.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <div role="alert" className="notice error" ref={ref}>
      <p>{text}</p>
      <button type="button" onClick={onConfirm}>
        {confirmLabel}
      </button>
    </div>
  );
}

/** One amount per tender (the first focused), and "rest in cash/by card" to fill what remains. */
function TenderInputs({
  methods,
  amounts,
  set,
  exp,
  problems,
  rest,
}: {
  methods: typeof METHODS;
  amounts: Record<Method, number>;
  set: (method: Method) => (value: number) => void;
  exp: number;
  problems: TenderFigures['problems'];
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
            error={problems[m.method]}
            data-autofocus={i === 0 ? '' : undefined}
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
  /** The change as given, with its currency when that is not the sale's. */
  change: string;
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
          <output aria-label="Change">{change}</output>
        </dd>
      </div>
    </dl>
  );
}
