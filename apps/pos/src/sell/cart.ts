import type { Medicine } from '@pharmacy/contracts';
import { vatRateOf } from '@pharmacy/contracts/tax';
import { formatMinor, parseMoneyInput } from '@pharmacy/contracts/money';
import { type CouponTerms, priceCart, scaledRate } from '@pharmacy/contracts/pricing';

/** One line of the cart: what the till needs to show it and to send it. */
export interface CartLine {
  medicine_id: string;
  name: string;
  generic_name: string;
  strength: string;
  form: string;
  unit_price: string;
  vat_category: string;
  requires_prescription: boolean;
  is_controlled: boolean;
  quantity: number;
  /** Line discount amount (base currency). */
  discount: number;
  /** From a GS1 scan: the pack's batch and expiry (the server still sells first-expiry-first-out). */
  scanned_batch?: string | undefined;
  scanned_expiry?: string | undefined;
  /** Units on hand in the branch when the line was added (absent on a cart parked before it was kept). */
  stock_quantity?: number | undefined;
}

/** How many units of a line the branch lacks as it stood when added; 0 when it holds enough. */
export const shortfall = (l: CartLine): number =>
  l.stock_quantity === undefined ? 0 : Math.max(0, l.quantity - l.stock_quantity);

export interface CartCustomer {
  id: string;
  name: string;
  is_credit_allowed: boolean;
  credit_limit: string;
  current_balance: string;
}

export type CartPrescription =
  | { id: string; label: string; emergency?: undefined }
  | { id: null; label: string; emergency: { reason: string; patient_name: string } };

export interface Cart {
  lines: CartLine[];
  customer: CartCustomer | null;
  /** The applied coupon: its code, what the server said it takes off, and its terms for the estimate. */
  coupon: { code: string; discount: string; terms: CouponTerms } | null;
  /**
   * What covers the cart's prescription-only lines: a prescription (its id), or an emergency supply by a
   * pharmacist (no id yet: the sale records it as a prescription of its own).
   */
  prescription: CartPrescription | null;
  /**
   * A will-call pickup (issue 27.1): the entry whose prepared goods the cart holds and who collects them; the
   * sale takes the stock reserved for it when it is paid.
   */
  will_call?: CartWillCall | null | undefined;
  /** The checkout in progress, as the sale's client_mutation_id: reused on a retry, reset by any change. */
  client_mutation_id: string | null;
}

export interface CartWillCall {
  id: string;
  label: string;
  collector: { name: string; relationship: string; id_number: string };
}

export const EMPTY_CART: Cart = {
  lines: [],
  customer: null,
  coupon: null,
  prescription: null,
  client_mutation_id: null,
};

export type CartAction =
  | {
      type: 'add';
      medicine: Medicine;
      quantity?: number;
      batch?: string | undefined;
      expiry?: string | undefined;
    }
  | { type: 'quantity'; medicine_id: string; quantity: number }
  | { type: 'discount'; medicine_id: string; discount: number }
  | { type: 'remove'; medicine_id: string }
  | { type: 'customer'; customer: CartCustomer | null }
  | { type: 'coupon'; coupon: Cart['coupon'] }
  | { type: 'prescription'; prescription: Cart['prescription'] }
  | { type: 'checkout'; id: string }
  | { type: 'pickup'; willCall: CartWillCall; lines: CartLine[]; prescription: CartPrescription }
  | { type: 'replace'; cart: Cart }
  | { type: 'clear' };

export function lineFromMedicine(m: Medicine, quantity = 1): CartLine {
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
    quantity,
    discount: 0,
    stock_quantity: m.stock_quantity,
  };
}

function changed(cart: Cart, patch: Partial<Cart>): Cart {
  return { ...cart, ...patch, client_mutation_id: null };
}

export function cartReducer(cart: Cart, action: CartAction): Cart {
  switch (action.type) {
    case 'add': {
      const qty = action.quantity ?? 1;
      const existing = cart.lines.find((l) => l.medicine_id === action.medicine.id);
      if (existing) {
        return changed(cart, {
          lines: cart.lines.map((l) =>
            l === existing
              ? {
                  ...l,
                  quantity: l.quantity + qty,
                  scanned_batch: action.batch ?? l.scanned_batch,
                  scanned_expiry: action.expiry ?? l.scanned_expiry,
                }
              : l,
          ),
        });
      }
      const line = {
        ...lineFromMedicine(action.medicine, qty),
        scanned_batch: action.batch,
        scanned_expiry: action.expiry,
      };
      return changed(cart, { lines: [...cart.lines, line] });
    }
    case 'quantity': {
      const quantity = Math.max(1, Math.min(1_000_000, Math.floor(action.quantity) || 1));
      return changed(cart, {
        lines: cart.lines.map((l) => (l.medicine_id === action.medicine_id ? { ...l, quantity } : l)),
      });
    }
    case 'discount': {
      const discount = Number.isFinite(action.discount) ? Math.max(0, action.discount) : 0;
      return changed(cart, {
        lines: cart.lines.map((l) => (l.medicine_id === action.medicine_id ? { ...l, discount } : l)),
      });
    }
    case 'remove':
      return changed(cart, { lines: cart.lines.filter((l) => l.medicine_id !== action.medicine_id) });
    case 'customer':
      return changed(cart, { customer: action.customer });
    case 'coupon':
      return changed(cart, { coupon: action.coupon });
    case 'prescription':
      return changed(cart, { prescription: action.prescription });
    case 'checkout':
      return { ...cart, client_mutation_id: action.id };
    case 'pickup':
      return {
        ...EMPTY_CART,
        customer: cart.customer,
        lines: action.lines,
        prescription: action.prescription,
        will_call: action.willCall,
      };
    case 'replace':
      return action.cart;
    case 'clear':
      return EMPTY_CART;
  }
}

export interface TaxPolicy {
  vat_rates: Record<string, number>;
  prices_include_vat: boolean;
}

export interface CartEstimate {
  /** The currency's decimals every amount below is written in. */
  exponent: number;
  lines: { medicine_id: string; rate: number; gross: string; vat: string; total: string }[];
  subtotal: string;
  vat: string;
  discount: string;
  coupon: string;
  total: string;
  totalMinor: number;
}

/** What the cashier typed as a line discount, in minor units, never more than the line. */
function lineDiscountMinor(line: CartLine, gross: number, exponent: number): number {
  const typed = parseMoneyInput(String(line.discount), exponent) ?? 0;
  return Math.max(0, Math.min(typed, gross));
}

/**
 * The till's estimate of the sale while the cart is edited: the same pricing function the server's sale runs
 * (@pharmacy/contracts/pricing), so with the same prices, rates and coupon the estimate is the receipt.
 */
export function estimateCart(cart: Cart, tax: TaxPolicy, exponent = 2): CartEstimate {
  const lines = cart.lines.map((l) => {
    const unitPrice = parseMoneyInput(l.unit_price, exponent) ?? 0;
    return {
      unitPrice,
      quantity: l.quantity,
      lineDiscount: lineDiscountMinor(l, unitPrice * l.quantity, exponent),
      rate: scaledRate(vatRateOf(tax, l.vat_category) ?? 0),
    };
  });
  const priced = priceCart({
    lines,
    globalDiscount: 0,
    coupon: cart.coupon?.terms ?? null,
    pricesIncludeVat: tax.prices_include_vat,
  });
  const money = (minor: number) => formatMinor(minor, exponent);
  return {
    exponent,
    lines: priced.lines.map((p, i) => ({
      medicine_id: cart.lines[i]?.medicine_id ?? '',
      rate: vatRateOf(tax, cart.lines[i]?.vat_category ?? '') ?? 0,
      gross: money(p.gross),
      vat: money(p.vat),
      total: money(p.gross),
    })),
    subtotal: money(priced.subtotal),
    vat: money(priced.vat),
    discount: money(priced.lineDiscount + priced.couponDiscount),
    coupon: money(priced.couponDiscount),
    total: money(priced.total),
    totalMinor: priced.total,
  };
}

export function newMutationId(): string {
  const random =
    typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID()
      : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
          '',
        );
  return `till-${random}`;
}
