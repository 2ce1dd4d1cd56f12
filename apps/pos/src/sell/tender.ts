import { fromBase, parseMoneyInput, parseScaled } from '@pharmacy/contracts/money';

export type TenderMethod = 'cash' | 'card' | 'mobile_money' | 'credit';

export interface TenderFigures {
  /** What each method pays, minor units of the tender currency (typed amounts that are no amount count 0). */
  minor: Partial<Record<TenderMethod, number>>;
  /** The total in the tender currency; null while the exchange rate is unknown. */
  due: number | null;
  paid: number;
  remaining: number | null;
  change: number;
  /** Card, mobile money and credit together pay more than is due: change comes from cash only. */
  overpaid: boolean;
  fromBase: (baseMinor: number) => number;
}

/**
 * The payment dialog's figures in integer minor units of the tender currency: the base total converted at the
 * rate exactly as the server converts a sale (contracts' fromBase), never float arithmetic on money.
 */
export function tenderFigures(input: {
  estimateTotalMinor: number;
  /** The effective rate (1 unit of the tender currency in the base currency), or null for the base currency. */
  rate: string | null | undefined;
  exp: number;
  baseExp: number;
  amounts: Record<TenderMethod, number>;
}): TenderFigures {
  const { exp, baseExp } = input;
  const rate = input.rate ? parseScaled(input.rate) : null;
  const convert = (baseMinor: number) =>
    rate === null ? baseMinor : rate > 0n ? fromBase(baseMinor, rate, exp, baseExp) : baseMinor;
  const waitingForRate = input.rate === undefined;
  const due = waitingForRate ? null : convert(input.estimateTotalMinor);
  const minor: Partial<Record<TenderMethod, number>> = {};
  for (const [method, value] of Object.entries(input.amounts) as Array<[TenderMethod, number]>) {
    const parsed = Number.isFinite(value) && value > 0 ? parseMoneyInput(String(value), exp) : null;
    if (parsed !== null && parsed > 0) minor[method] = parsed;
  }
  const paid = Object.values(minor).reduce((s, v) => s + v, 0);
  const nonCash = paid - (minor.cash ?? 0);
  return {
    minor,
    due,
    paid,
    remaining: due === null ? null : Math.max(0, due - paid),
    change: due === null ? 0 : Math.max(0, paid - due),
    overpaid: due !== null && nonCash > due,
    fromBase: convert,
  };
}
