import { currencyExponent, formatMoney } from '@pharmacy/contracts/money';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../api';

/**
 * Money on screen, through the one money module (@pharmacy/contracts/money): amounts are shown
 * in their currency's own decimals (0 for JPY, 3 for KWD), exactly as the server sent them.
 */
export { formatMoney };

/** The registry's exponent per currency code; ISO's table until the registry has answered. */
export function useCurrencyExponents(): (code: string | null | undefined) => number {
  const currencies = useQuery({
    queryKey: ['currencies'],
    queryFn: () => api.currency.list(),
    staleTime: 300_000,
  });
  const items = currencies.data?.items;
  return useCallback(
    (code) => {
      if (!code) return 2;
      return items?.find((c) => c.code === code)?.exponent ?? currencyExponent(code);
    },
    [items],
  );
}

/** Formats an amount of a currency (default: the organisation's base currency) for display. */
export function useFormatMoney(): (
  value: string | number | null | undefined,
  currencyCode?: string,
) => string {
  const exponentOf = useCurrencyExponents();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const base = settings.data?.base_currency_code;
  return useCallback(
    (value, currencyCode) => formatMoney(value, exponentOf(currencyCode ?? base)),
    [exponentOf, base],
  );
}
