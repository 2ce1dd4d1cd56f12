import type { Medicine, SaleDetail } from '@pharmacy/contracts';
import { ApiError } from '@pharmacy/contracts/client';
import { couponTermsOf } from '@pharmacy/contracts/pricing';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api';
import {
  SCAN_DETECTED_MARK,
  SCAN_DETECTED_TO_LINE_MEASURE,
  SCAN_START_MARK,
  SCAN_TO_LINE_MEASURE,
} from '../auth/marks';
import { useCashSession } from '../cash/useCashSession';
import { useUser } from '../session/SessionProvider';
import { useShortcuts } from '../shell/useShortcuts';
import { DraftNumberInput } from '../ui/DraftNumberInput';
import { describeError } from '../ui/ErrorNotice';
import { cartReducer, estimateCart, newMutationId } from './cart';
import { loadCart, saveCart } from './cart-storage';
import { parseGs1 } from './gs1';
import { MedicineSearch } from './MedicineSearch';
import { PaymentDialog } from './PaymentDialog';
import {
  CustomerDialog,
  ParkDialog,
  PrescriptionDialog,
  SaleDoneDialog,
  SubstitutesDialog,
} from './SellDialogs';
import { useTillSettings } from './useTaxPolicy';
import { useSerialScanner } from './useSerialScanner';
import { useWedgeScanner } from './useWedgeScanner';

type Open =
  | { kind: 'none' }
  | { kind: 'pay' }
  | { kind: 'customer' }
  | { kind: 'park' }
  | { kind: 'prescription' }
  | { kind: 'substitutes'; medicine: { id: string; name: string } }
  | { kind: 'done'; sale: SaleDetail };

type Message = { tone: 'error' | 'info'; text: string } | null;

/** Who may sell prescription-only medicines without a prescription. */
const PRESCRIBERS = new Set(['pharmacist', 'admin']);

export function SellScreen() {
  const user = useUser();
  const queryClient = useQueryClient();
  const [cart, dispatch] = useReducer(cartReducer, user.id, loadCart);
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const [message, setMessage] = useState<Message>(null);
  const [coupon, setCoupon] = useState('');
  const { tax, baseCurrency, exponent, money } = useTillSettings();
  const cash = useCashSession();
  const searchRef = useRef<HTMLInputElement>(null);
  const pendingScan = useRef<string | null>(null);
  const estimate = useMemo(() => estimateCart(cart, tax, exponent), [cart, tax, exponent]);

  useEffect(() => saveCart(user.id, cart), [user.id, cart]);

  // Scan-to-line: the scanned medicine's line is in the DOM once this commit's effects run.
  useEffect(() => {
    const id = pendingScan.current;
    if (id && cart.lines.some((l) => l.medicine_id === id)) {
      pendingScan.current = null;
      performance.measure(SCAN_TO_LINE_MEASURE, SCAN_START_MARK);
      performance.measure(SCAN_DETECTED_TO_LINE_MEASURE, SCAN_DETECTED_MARK);
    }
  }, [cart.lines]);

  const close = useCallback(() => {
    setOpen({ kind: 'none' });
    requestAnimationFrame(() => searchRef.current?.focus());
  }, []);

  const addMedicine = useCallback(
    (m: Medicine, scan?: { batch?: string | undefined; expiry?: string | undefined; measure: boolean }) => {
      const inCart = cart.lines.find((l) => l.medicine_id === m.id)?.quantity ?? 0;
      if (m.stock_quantity <= inCart) {
        setMessage({
          tone: 'error',
          text:
            m.stock_quantity <= 0
              ? `${m.name} is out of stock.`
              : `Only ${m.stock_quantity} ${m.name} in stock, all in the cart.`,
        });
        setOpen({ kind: 'substitutes', medicine: { id: m.id, name: m.name } });
        return;
      }
      if (scan?.measure) pendingScan.current = m.id;
      dispatch({ type: 'add', medicine: m, batch: scan?.batch, expiry: scan?.expiry });
      if (m.is_controlled && !PRESCRIBERS.has(user.role)) {
        setMessage({ tone: 'error', text: `${m.name} is a controlled medicine: a pharmacist must sell it.` });
      } else if (m.requires_prescription && !PRESCRIBERS.has(user.role)) {
        setMessage({
          tone: 'info',
          text: `${m.name} is prescription-only: you will be asked for the prescription.`,
        });
      } else {
        setMessage(null);
      }
    },
    [cart.lines, user.role],
  );

  const onScan = useCallback(
    async (code: string, startedAt: number) => {
      performance.mark(SCAN_START_MARK, { startTime: startedAt });
      performance.mark(SCAN_DETECTED_MARK, { detail: code });
      if (open.kind === 'done') setOpen({ kind: 'none' });
      const gs1 = parseGs1(code);
      const barcode = gs1?.gtin ?? code;
      try {
        const m = await api.medicines.byBarcode(barcode);
        addMedicine(m, { batch: gs1?.batch, expiry: gs1?.expiry, measure: true });
      } catch (error) {
        setMessage({
          tone: 'error',
          text:
            error instanceof ApiError && (error.status === 404 || error.status === 400)
              ? `Unknown barcode ${barcode}: no medicine has it. Search by name instead.`
              : describeError(error),
        });
      }
    },
    [addMedicine, open.kind],
  );
  const scanning = open.kind === 'none' || open.kind === 'done';
  useWedgeScanner(onScan, { enabled: scanning });
  useSerialScanner(onScan, { enabled: scanning });

  const needsPrescription = cart.lines.some(
    (l) => l.is_controlled || (l.requires_prescription && !PRESCRIBERS.has(user.role)),
  );
  const startPayment = useCallback(() => {
    if (cart.lines.length === 0) return;
    if (needsPrescription && !cart.prescription) {
      setOpen({ kind: 'prescription' });
      return;
    }
    if (!cart.checkout_id) dispatch({ type: 'checkout', id: newMutationId() });
    setOpen({ kind: 'pay' });
  }, [cart.lines.length, cart.prescription, cart.checkout_id, needsPrescription]);

  const onOutOfStock = useCallback(
    (medicineId: string, detail: string) => {
      const line = cart.lines.find((l) => l.medicine_id === medicineId);
      setMessage({ tone: 'error', text: `${detail} The sale was not recorded; the cart is kept.` });
      setOpen({ kind: 'substitutes', medicine: { id: medicineId, name: line?.name ?? 'the medicine' } });
    },
    [cart.lines],
  );

  const validateCoupon = useMutation({
    mutationFn: () =>
      api.coupons.validate(coupon.trim(), {
        subtotal: Number(estimateCart({ ...cart, coupon: null }, tax, exponent).total),
        customer_id: cart.customer?.id,
      }),
    onSuccess: (v) => {
      if (v.valid) {
        dispatch({
          type: 'coupon',
          coupon: {
            code: v.coupon.code,
            discount: v.discount_amount,
            terms: couponTermsOf(v.coupon, exponent),
          },
        });
        setMessage({
          tone: 'info',
          text: `Coupon ${v.coupon.code} applied: −${money(v.discount_amount)}.`,
        });
        setCoupon('');
      } else {
        setMessage({
          tone: 'error',
          text: `Coupon ${v.coupon.code} does not apply (${(v.reason ?? '').toLowerCase().replace(/_/g, ' ')}).`,
        });
      }
    },
    onError: (error) =>
      setMessage({
        tone: 'error',
        text:
          error instanceof ApiError && error.status === 404
            ? `No coupon has the code ${coupon.trim()}.`
            : describeError(error),
      }),
  });

  const openCustomer = () => setOpen({ kind: 'customer' });
  const openPark = () => setOpen({ kind: 'park' });
  useShortcuts({ F7: openCustomer, F8: startPayment, F10: openPark });

  const session = cash.data;
  const tillRole = user.role !== 'admin' && user.role !== 'branch_manager';
  const done = (sale: SaleDetail) => {
    dispatch({ type: 'clear' });
    setMessage(null);
    setOpen({ kind: 'done', sale });
    queryClient.invalidateQueries({ queryKey: ['cash-session'] });
    queryClient.invalidateQueries({ queryKey: ['z-report'] });
    queryClient.invalidateQueries({ queryKey: ['medicine-search'] });
  };

  return (
    <section aria-labelledby="screen-title" className="sell">
      <div className="screen-header">
        <h1 id="screen-title">Sell</h1>
        <div className="sell-actions">
          <button type="button" onClick={() => setOpen({ kind: 'customer' })} aria-keyshortcuts="F7">
            <kbd>F7</kbd> Customer
          </button>
          <button type="button" onClick={() => setOpen({ kind: 'park' })} aria-keyshortcuts="F10">
            <kbd>F10</kbd> Park / recall
          </button>
        </div>
      </div>
      {tillRole && session === null && (
        <p className="notice info">
          No cash session is open. <Link href="/cash">Open one (F6)</Link> before taking payment.
        </p>
      )}
      {session?.status === 'on_break' && (
        <p className="notice info">
          You are on a break. <Link href="/cash">End the break (F6)</Link> to sell.
        </p>
      )}
      {message &&
        (message.tone === 'error' ? (
          <p role="alert" className="notice error">
            {message.text}
          </p>
        ) : (
          <p role="status" className="notice info">
            {message.text}
          </p>
        ))}
      <div className="sell-layout">
        <div className="sell-main">
          <MedicineSearch inputRef={searchRef} onPick={(m) => addMedicine(m)} />
          <table aria-label="Cart" className="cart">
            <thead>
              <tr>
                <th scope="col">Medicine</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col">Quantity</th>
                <th scope="col">Discount</th>
                <th scope="col">VAT</th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {cart.lines.map((l) => {
                const est = estimate.lines.find((e) => e.medicine_id === l.medicine_id);
                return (
                  <tr key={l.medicine_id}>
                    <th scope="row">
                      {l.name} <span className="muted">{[l.strength, l.form].filter(Boolean).join(' ')}</span>
                      {l.is_controlled ? (
                        <span className="badge">Controlled</span>
                      ) : (
                        l.requires_prescription && <span className="badge">Rx</span>
                      )}
                      {l.scanned_batch && (
                        <small className="muted block">
                          Batch {l.scanned_batch}
                          {l.scanned_expiry ? `, exp. ${l.scanned_expiry}` : ''}
                        </small>
                      )}
                    </th>
                    <td className="num">{money(l.unit_price)}</td>
                    <td>
                      <div className="qty">
                        <button
                          type="button"
                          aria-label={`Less ${l.name}`}
                          onClick={() =>
                            dispatch({
                              type: 'quantity',
                              medicine_id: l.medicine_id,
                              quantity: l.quantity - 1,
                            })
                          }
                          disabled={l.quantity <= 1}
                        >
                          −
                        </button>
                        <DraftNumberInput
                          aria-label={`Quantity of ${l.name}`}
                          min={1}
                          step={1}
                          value={l.quantity}
                          onCommit={(q) =>
                            dispatch({ type: 'quantity', medicine_id: l.medicine_id, quantity: q })
                          }
                        />
                        <button
                          type="button"
                          aria-label={`More ${l.name}`}
                          onClick={() =>
                            dispatch({
                              type: 'quantity',
                              medicine_id: l.medicine_id,
                              quantity: l.quantity + 1,
                            })
                          }
                        >
                          +
                        </button>
                      </div>
                    </td>
                    <td>
                      <DraftNumberInput
                        className="discount"
                        aria-label={`Discount on ${l.name}`}
                        min={0}
                        step="0.01"
                        value={l.discount}
                        onCommit={(d) =>
                          dispatch({ type: 'discount', medicine_id: l.medicine_id, discount: d })
                        }
                      />
                    </td>
                    <td>{est?.rate ?? 0}%</td>
                    <td className="num">{money(est?.total ?? 0)}</td>
                    <td>
                      <button
                        type="button"
                        className="ghost"
                        aria-label={`Remove ${l.name}`}
                        onClick={() => dispatch({ type: 'remove', medicine_id: l.medicine_id })}
                      >
                        ✕
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {cart.lines.length === 0 && (
            <p className="empty-cart">Scan a pack or search for a medicine to start a sale.</p>
          )}
        </div>
        <aside className="card totals" aria-label="Totals">
          {cart.customer && (
            <p>
              Customer: <strong>{cart.customer.name}</strong>
            </p>
          )}
          {cart.prescription && (
            <p>
              Prescription: <strong>{cart.prescription.label}</strong>{' '}
              <button
                type="button"
                className="ghost"
                onClick={() => dispatch({ type: 'prescription', prescription: null })}
              >
                Remove prescription
              </button>
            </p>
          )}
          <dl className="figures totals-list">
            <div className="figure">
              <dt>Subtotal</dt>
              <dd>{money(estimate.subtotal)}</dd>
            </div>
            <div className="figure">
              <dt>VAT</dt>
              <dd>{money(estimate.vat)}</dd>
            </div>
            <div className="figure">
              <dt>Discounts</dt>
              <dd>{money(estimate.discount)}</dd>
            </div>
            <div className="figure big-figure">
              <dt>Total</dt>
              <dd>
                <output aria-label="Total">
                  {money(estimate.total)} {baseCurrency}
                </output>
              </dd>
            </div>
          </dl>
          <p className="hint">Estimate while you edit; the receipt shows the recorded figures.</p>
          {cart.coupon ? (
            <p>
              Coupon <strong>{cart.coupon.code}</strong> −{money(cart.coupon.discount)}{' '}
              <button
                type="button"
                className="ghost"
                onClick={() => dispatch({ type: 'coupon', coupon: null })}
              >
                Remove coupon
              </button>
            </p>
          ) : (
            <form
              className="inline-add"
              onSubmit={(e) => {
                e.preventDefault();
                if (coupon.trim() && cart.lines.length > 0) validateCoupon.mutate();
              }}
            >
              <input
                aria-label="Coupon code"
                placeholder="Coupon code"
                value={coupon}
                onChange={(e) => setCoupon(e.target.value)}
              />
              <button
                type="submit"
                disabled={validateCoupon.isPending || !coupon.trim() || cart.lines.length === 0}
              >
                Apply
              </button>
            </form>
          )}
          <button
            type="button"
            className="primary big"
            onClick={startPayment}
            disabled={cart.lines.length === 0}
            aria-keyshortcuts="F8"
          >
            <kbd>F8</kbd> Pay
          </button>
          {cart.lines.length > 0 && (
            <button
              type="button"
              className="ghost"
              onClick={() => {
                dispatch({ type: 'clear' });
                setMessage(null);
              }}
            >
              Clear cart
            </button>
          )}
        </aside>
      </div>
      {open.kind === 'pay' && (
        <PaymentDialog
          cart={cart}
          estimateTotalMinor={estimate.totalMinor}
          baseCurrency={baseCurrency}
          onPaid={done}
          onOutOfStock={onOutOfStock}
          onClose={close}
        />
      )}
      {open.kind === 'done' && <SaleDoneDialog sale={open.sale} onClose={close} />}
      {open.kind === 'customer' && (
        <CustomerDialog
          current={cart.customer}
          onPick={(customer) => {
            dispatch({ type: 'customer', customer });
            close();
          }}
          onClose={close}
        />
      )}
      {open.kind === 'park' && (
        <ParkDialog
          cart={cart}
          onParked={() => {
            dispatch({ type: 'clear' });
            setMessage({ tone: 'info', text: 'Cart parked.' });
            close();
          }}
          onRecalled={(next) => {
            dispatch({ type: 'replace', cart: next });
            setMessage({ tone: 'info', text: 'Cart recalled.' });
            close();
          }}
          onClose={close}
        />
      )}
      {open.kind === 'prescription' && (
        <PrescriptionDialog
          cart={cart}
          onPick={(prescription) => {
            dispatch({ type: 'prescription', prescription });
            dispatch({ type: 'checkout', id: newMutationId() });
            setOpen({ kind: 'pay' });
          }}
          onClose={close}
        />
      )}
      {open.kind === 'substitutes' && (
        <SubstitutesDialog
          medicine={open.medicine}
          onAdd={(m) => {
            addMedicine(m);
            close();
          }}
          onClose={close}
        />
      )}
    </section>
  );
}
