import { type Cart, EMPTY_CART } from './cart';

const STORAGE_PREFIX = 'till:cart:';

/** The cart survives a reload of the tab (sessionStorage), per user. */
export function loadCart(userId: string): Cart {
  try {
    const raw = sessionStorage.getItem(STORAGE_PREFIX + userId);
    if (!raw) return EMPTY_CART;
    const parsed = JSON.parse(raw) as Partial<Cart>;
    if (!Array.isArray(parsed.lines)) return EMPTY_CART;
    // A coupon saved before its terms were kept is dropped: the cashier applies it again.
    const coupon = parsed.coupon?.terms ? parsed.coupon : null;
    return { ...EMPTY_CART, ...parsed, coupon } as Cart;
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
