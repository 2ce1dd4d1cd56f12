import type { Medicine } from '@pharmacy/contracts';
import { vatRateOf } from '@pharmacy/contracts/tax';
import { roundMoney, toNumber } from '../ui/money';

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
}

export interface CartCustomer {
  id: string;
  name: string;
  is_credit_allowed: boolean;
  credit_limit: string;
  current_balance: string;
}

export interface Cart {
  lines: CartLine[];
  customer: CartCustomer | null;
  coupon: { code: string; discount: string } | null;
  prescription: { id: string; label: string } | null;
  /** The client_mutation_id of the checkout in progress: reused on a retry, reset by any change. */
  checkout_id: string | null;
}

export const EMPTY_CART: Cart = {
  lines: [],
  customer: null,
  coupon: null,
  prescription: null,
  checkout_id: null,
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
  };
}

function changed(cart: Cart, patch: Partial<Cart>): Cart {
  return { ...cart, ...patch, checkout_id: null };
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
      return { ...cart, checkout_id: action.id };
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
  lines: { medicine_id: string; rate: number; gross: number; vat: number; total: number }[];
  subtotal: number;
  vat: number;
  discount: number;
  total: number;
}

/**
 * The till's own estimate of the totals while the cart is edited (the sale response is the truth):
 * VAT per line, rounded half up; a coupon discount spread over the lines in proportion.
 */
export function estimateCart(cart: Cart, tax: TaxPolicy): CartEstimate {
  const base = cart.lines.map((l) => {
    const amount = roundMoney(toNumber(l.unit_price) * l.quantity - l.discount);
    return { line: l, amount: Math.max(0, amount), rate: vatRateOf(tax, l.vat_category) ?? 0 };
  });
  const before = base.reduce((s, b) => s + b.amount, 0);
  const coupon = Math.min(before, toNumber(cart.coupon?.discount));
  const lines = base.map((b) => {
    const share = before > 0 ? roundMoney((coupon * b.amount) / before) : 0;
    const amount = b.amount - share;
    if (tax.prices_include_vat) {
      const vat = roundMoney((amount * b.rate) / (100 + b.rate));
      return { medicine_id: b.line.medicine_id, rate: b.rate, gross: amount, vat, total: amount };
    }
    const vat = roundMoney((amount * b.rate) / 100);
    return {
      medicine_id: b.line.medicine_id,
      rate: b.rate,
      gross: amount,
      vat,
      total: roundMoney(amount + vat),
    };
  });
  const total = roundMoney(lines.reduce((s, l) => s + l.total, 0));
  const vat = roundMoney(lines.reduce((s, l) => s + l.vat, 0));
  const discount = roundMoney(cart.lines.reduce((s, l) => s + l.discount, 0) + coupon);
  return { lines, subtotal: roundMoney(total - vat), vat, discount, total };
}

const STORAGE_PREFIX = 'till:cart:';

/** The cart survives a reload of the tab (sessionStorage), per user. */
export function loadCart(userId: string): Cart {
  try {
    const raw = sessionStorage.getItem(STORAGE_PREFIX + userId);
    if (!raw) return EMPTY_CART;
    const parsed = JSON.parse(raw) as Partial<Cart>;
    if (!Array.isArray(parsed.lines)) return EMPTY_CART;
    return { ...EMPTY_CART, ...parsed } as Cart;
  } catch {
    return EMPTY_CART;
  }
}

export function saveCart(userId: string, cart: Cart): void {
  try {
    if (cart.lines.length === 0 && !cart.customer) sessionStorage.removeItem(STORAGE_PREFIX + userId);
    else sessionStorage.setItem(STORAGE_PREFIX + userId, JSON.stringify(cart));
  } catch {
    // Storage full or disabled: the cart still lives in memory.
  }
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
