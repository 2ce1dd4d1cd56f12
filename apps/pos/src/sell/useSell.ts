import type { Medicine, Role, SaleDetail } from '@pharmacy/contracts';
import { PHARMACIST_ROLES } from '@pharmacy/contracts/roles';
import { ApiError } from '@pharmacy/contracts/client';
import { couponTermsOf } from '@pharmacy/contracts/pricing';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { api } from '../api';
import {
  SCAN_DETECTED_MARK,
  SCAN_DETECTED_TO_LINE_MEASURE,
  SCAN_START_MARK,
  SCAN_TO_LINE_MEASURE,
} from '../auth/marks';
import { useCashSession } from '../cash/useCashSession';
import { useUser } from '../session/SessionProvider';
import { useShortcuts } from '../ui/useShortcuts';
import { describeError } from '../ui/ErrorNotice';
import { type Cart, type CartAction, cartReducer, estimateCart, newMutationId, type TaxPolicy } from './cart';
import { loadCart, saveCart } from './cart-storage';
import { parseGs1 } from './gs1';
import { useTillSettings } from './useTaxPolicy';
import { useSerialScanner } from './useSerialScanner';
import { useWedgeScanner } from './useWedgeScanner';

export type Open =
  | { kind: 'none' }
  | { kind: 'pay' }
  | { kind: 'customer' }
  | { kind: 'park' }
  | { kind: 'recent' }
  | { kind: 'prescription' }
  | { kind: 'pickup' }
  | { kind: 'substitutes'; medicine: { id: string; name: string } }
  | { kind: 'done'; sale: SaleDetail };

export type Message = { tone: 'error' | 'info'; text: string } | null;

/** The selling screen's state and actions: the cart, scanning, coupons, checkout and the dialogs' state. */
export function useSell() {
  const user = useUser();
  const queryClient = useQueryClient();
  const [cart, dispatch] = useReducer(cartReducer, user.id, loadCart);
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const [message, setMessage] = useState<Message>(null);
  const { tax, baseCurrency, exponent, money } = useTillSettings();
  const cash = useCashSession();
  const searchRef = useRef<HTMLInputElement>(null);
  const estimate = useMemo(() => estimateCart(cart, tax, exponent), [cart, tax, exponent]);

  useEffect(() => saveCart(user.id, cart), [user.id, cart]);

  const { addMedicine, scans } = useScanToCart({
    cart,
    dispatch,
    role: user.role,
    open,
    setOpen,
    setMessage,
  });

  const close = useCallback(() => {
    setOpen({ kind: 'none' });
    requestAnimationFrame(() => searchRef.current?.focus());
  }, []);

  // Every role: a prescription-only or controlled line needs the prescription that covers it.
  const needsPrescription = cart.lines.some((l) => l.is_controlled || l.requires_prescription);
  const startPayment = useCallback(() => {
    if (cart.lines.length === 0) return;
    if (needsPrescription && !cart.prescription) {
      setOpen({ kind: 'prescription' });
      return;
    }
    if (!cart.client_mutation_id) dispatch({ type: 'checkout', id: newMutationId() });
    setOpen({ kind: 'pay' });
  }, [cart.lines.length, cart.prescription, cart.client_mutation_id, needsPrescription]);

  // Pay pressed while a scanned pack is still being looked up waits for it, so the total has every pack the
  // cashier scanned; a scan that failed (unknown code, out of stock) cancels it, to be read first.
  const [payAfterScan, setPayAfterScan] = useState(false);
  const requestPayment = useCallback(() => {
    if (scans.inFlight === 0) return startPayment();
    scans.failed.current = false;
    setPayAfterScan(true);
  }, [scans, startPayment]);
  useEffect(() => {
    if (!payAfterScan || scans.inFlight > 0) return;
    setPayAfterScan(false);
    if (!scans.failed.current) startPayment();
  }, [payAfterScan, scans, startPayment]);

  const onOutOfStock = useCallback(
    (medicineId: string, detail: string) => {
      const line = cart.lines.find((l) => l.medicine_id === medicineId);
      setMessage({ tone: 'error', text: `${detail} The sale was not recorded; the cart is kept.` });
      setOpen({ kind: 'substitutes', medicine: { id: medicineId, name: line?.name ?? 'the medicine' } });
    },
    [cart.lines],
  );

  const { coupon, setCoupon, validateCoupon } = useCouponEntry({
    cart,
    dispatch,
    tax,
    exponent,
    money,
    setMessage,
  });

  const openCustomer = () => setOpen({ kind: 'customer' });
  const openPark = () => setOpen({ kind: 'park' });
  useShortcuts({ F7: openCustomer, F8: requestPayment, F10: openPark });

  const session = cash.data;
  const done = (sale: SaleDetail) => {
    dispatch({ type: 'clear' });
    setMessage(null);
    setOpen({ kind: 'done', sale });
    queryClient.invalidateQueries({ queryKey: ['cash-session'] });
    queryClient.invalidateQueries({ queryKey: ['z-report'] });
    queryClient.invalidateQueries({ queryKey: ['medicine-search'] });
    // A will-call pickup leaves the shelf with its sale.
    queryClient.invalidateQueries({ queryKey: ['will-call'] });
  };

  return {
    user,
    cart,
    dispatch,
    open,
    setOpen,
    message,
    setMessage,
    coupon,
    setCoupon,
    tax,
    baseCurrency,
    exponent,
    money,
    searchRef,
    estimate,
    close,
    addMedicine,
    requestPayment,
    onOutOfStock,
    validateCoupon,
    session,
    done,
  };
}

interface CouponEntry {
  cart: Cart;
  dispatch: (action: CartAction) => void;
  tax: TaxPolicy;
  exponent: number;
  money: (value: string | number | null | undefined) => string;
  setMessage: (message: Message) => void;
}

/** The coupon box: what is typed, and its check against the cart (the terms then price the estimate). */
function useCouponEntry({ cart, dispatch, tax, exponent, money, setMessage }: CouponEntry) {
  const [coupon, setCoupon] = useState('');
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
  return { coupon, setCoupon, validateCoupon };
}

interface ScanToCart {
  cart: Cart;
  dispatch: (action: CartAction) => void;
  role: Role;
  open: Open;
  setOpen: (open: Open) => void;
  setMessage: (message: Message) => void;
}

/**
 * Adding to the cart, by search or scan: stock and prescription checks on the way in, the wedge and serial
 * scanners (while no dialog is open) and the scan-to-line measure. Gives `addMedicine`, and `scans`: how many
 * scanned codes are still being looked up, and whether one failed since `failed` was last cleared.
 */
function useScanToCart({ cart, dispatch, role, open, setOpen, setMessage }: ScanToCart) {
  const pendingScan = useRef<string | null>(null);
  const [inFlight, setInFlight] = useState(0);
  const failed = useRef(false);
  const scans = useMemo(() => ({ inFlight, failed }), [inFlight]);

  // Scan-to-line: the scanned medicine's line is in the DOM once this commit's effects run.
  useEffect(() => {
    const id = pendingScan.current;
    if (id && cart.lines.some((l) => l.medicine_id === id)) {
      pendingScan.current = null;
      performance.measure(SCAN_TO_LINE_MEASURE, SCAN_START_MARK);
      performance.measure(SCAN_DETECTED_TO_LINE_MEASURE, SCAN_DETECTED_MARK);
    }
  }, [cart.lines]);

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
        if (scan) failed.current = true;
        return;
      }
      if (scan?.measure) pendingScan.current = m.id;
      dispatch({ type: 'add', medicine: m, batch: scan?.batch, expiry: scan?.expiry });
      if (m.is_controlled && !PHARMACIST_ROLES.includes(role)) {
        setMessage({ tone: 'error', text: `${m.name} is a controlled medicine: a pharmacist must sell it.` });
      } else if (m.requires_prescription) {
        setMessage({
          tone: 'info',
          text: `${m.name} is prescription-only: you will be asked for the prescription.`,
        });
      } else {
        setMessage(null);
      }
    },
    [cart.lines, role, dispatch, setMessage, setOpen],
  );

  const onScan = useCallback(
    async (code: string, startedAt: number) => {
      performance.mark(SCAN_START_MARK, { startTime: startedAt });
      performance.mark(SCAN_DETECTED_MARK, { detail: code });
      if (open.kind === 'done') setOpen({ kind: 'none' });
      const gs1 = parseGs1(code);
      const barcode = gs1?.gtin ?? code;
      setInFlight((n) => n + 1);
      try {
        const m = await api.medicines.byBarcode(barcode);
        addMedicine(m, { batch: gs1?.batch, expiry: gs1?.expiry, measure: true });
      } catch (error) {
        failed.current = true;
        setMessage({
          tone: 'error',
          text:
            error instanceof ApiError && (error.status === 404 || error.status === 400)
              ? `Unknown barcode ${barcode}: no medicine has it. Search by name instead.`
              : describeError(error),
        });
      } finally {
        setInFlight((n) => n - 1);
      }
    },
    [addMedicine, open.kind, setOpen, setMessage],
  );
  const scanning = open.kind === 'none' || open.kind === 'done';
  useWedgeScanner(onScan, { enabled: scanning });
  useSerialScanner(onScan, { enabled: scanning });
  return { addMedicine, scans };
}
