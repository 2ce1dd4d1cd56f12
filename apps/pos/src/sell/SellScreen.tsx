import { Link } from 'wouter';
import { DraftNumberInput } from '../ui/DraftNumberInput';
import { newMutationId, shortfall } from './cart';
import { MedicineSearch } from './MedicineSearch';
import { NoticesBanner } from './NoticesBanner';
import { PaymentDialog } from './PaymentDialog';
import { CustomerDialog, ParkDialog, SaleDoneDialog, SubstitutesDialog } from './SellDialogs';
import { PrescriptionDialog } from './PrescriptionDialog';
import { RecentSalesDialog } from './RecentSalesDialog';
import { useSell } from './useSell';
import { WillCallPickupDialog } from './WillCallPickupDialog';

type Sell = ReturnType<typeof useSell>;

export function SellScreen() {
  const sell = useSell();
  const { setOpen, session, message, searchRef, addMedicine } = sell;
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
          <button type="button" onClick={() => setOpen({ kind: 'recent' })}>
            Recent sales
          </button>
          <button type="button" onClick={() => setOpen({ kind: 'pickup' })}>
            Pick up
          </button>
        </div>
      </div>
      <NoticesBanner />
      {session === null && (
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
          <MedicineSearch inputRef={searchRef} onPick={(m) => addMedicine(m)} sellSearch />
          <CartTable sell={sell} />
        </div>
        <TotalsPanel sell={sell} />
      </div>
      <SellDialogsFor sell={sell} />
    </section>
  );
}

/** The cart's lines: quantity steppers, line discounts, the estimate's VAT and total per line. */
function CartTable({ sell }: { sell: Sell }) {
  const { cart, estimate, dispatch, money } = sell;
  return (
    <>
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
                  {shortfall(l) > 0 && (
                    <small className="field-error block" role="status">
                      Only {l.stock_quantity} in stock: {shortfall(l)} short
                    </small>
                  )}
                </td>
                <td>
                  <DraftNumberInput
                    className="discount"
                    aria-label={`Discount on ${l.name}`}
                    min={0}
                    step="0.01"
                    value={l.discount}
                    onCommit={(d) => dispatch({ type: 'discount', medicine_id: l.medicine_id, discount: d })}
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
    </>
  );
}

/** The totals panel: customer, prescription, the estimate, the coupon, Pay and Clear cart. */
function TotalsPanel({ sell }: { sell: Sell }) {
  const {
    cart,
    estimate,
    dispatch,
    money,
    baseCurrency,
    coupon,
    setCoupon,
    validateCoupon,
    requestPayment,
    setMessage,
  } = sell;
  return (
    <aside className="card totals" aria-label="Totals">
      {cart.customer && (
        <p>
          Customer: <strong>{cart.customer.name}</strong>
        </p>
      )}
      {cart.will_call && (
        <p>
          <strong>{cart.will_call.label}</strong>, collected by {cart.will_call.collector.name}
        </p>
      )}
      {/* A will-call's prescription travels with it: one line on a 600-pixel-high counter screen, not two. */}
      {cart.prescription && !cart.will_call && (
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
          <button type="button" className="ghost" onClick={() => dispatch({ type: 'coupon', coupon: null })}>
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
        onClick={requestPayment}
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
  );
}

/** The dialog the screen has open: payment, sale done, customer, park/recall, prescription, substitutes. */
function SellDialogsFor({ sell }: { sell: Sell }) {
  const {
    open,
    setOpen,
    cart,
    estimate,
    baseCurrency,
    done,
    onOutOfStock,
    close,
    dispatch,
    setMessage,
    addMedicine,
  } = sell;
  return (
    <>
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
      {open.kind === 'recent' && <RecentSalesDialog onClose={close} />}
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
      {open.kind === 'pickup' && (
        <WillCallPickupDialog
          dispatch={dispatch}
          onLoaded={(label) => {
            setMessage({ tone: 'info', text: `${label} is in the cart: take the payment.` });
            close();
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
    </>
  );
}
