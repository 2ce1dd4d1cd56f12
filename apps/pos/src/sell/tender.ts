import { fromBase, parseMoneyInput, parseScaled } from '@pharmacy/contracts/money';

export type TenderMethod = 'cash' | 'card' | 'mobile_money' | 'credit';

/** No one tender at a till is this many major units or more: a larger figure is a typing or scanning slip. */
export const MAX_TENDER_MAJOR = 1_000_000_000;

/** What is wrong with a typed tender amount, in plain words; null when the currency can hold it. */
export function tenderProblem(value: number, exp: number): string | null {
  if (!Number.isFinite(value) || value === 0) return null;
  if (value < 0) return 'Enter an amount of 0 or more.';
  if (value >= MAX_TENDER_MAJOR)
    return `That is more than any payment at this till: enter less than ${MAX_TENDER_MAJOR.toLocaleString('en')}.`;
  if (parseMoneyInput(String(value), exp) !== null) return null;
  return exp === 0
    ? 'This currency has no cents: enter a whole amount.'
    : `This currency has ${exp} decimal places: enter at most ${exp} after the point.`;
}

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
  /** Amounts the currency cannot hold (too many decimals, absurdly large), by method: not counted. */
  problems: Partial<Record<TenderMethod, string>>;
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
  const problems: Partial<Record<TenderMethod, string>> = {};
  for (const [method, value] of Object.entries(input.amounts) as Array<[TenderMethod, number]>) {
    const problem = tenderProblem(value, exp);
    if (problem) {
      problems[method] = problem;
      continue;
    }
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
    problems,
    fromBase: convert,
  };
}
