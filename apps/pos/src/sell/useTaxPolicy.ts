import { formatMoney } from '@pharmacy/contracts/money';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../api';
import { useCurrencyExponents } from '../ui/money';
import type { TaxPolicy } from './cart';

const FALLBACK: TaxPolicy = { vat_rates: { standard: 18, zero: 0, exempt: 0 }, prices_include_vat: true };

export interface TillSettings {
  tax: TaxPolicy;
  baseCurrency: string;
  /** The base currency's decimals (0 for JPY, 3 for KWD). */
  exponent: number;
  /** An amount of the base currency for display, in its own decimals. */
  money: (value: string | number | null | undefined) => string;
}

/** VAT rates and the base currency for the cart estimate, from the settings every user may read. */
export function useTillSettings(): TillSettings {
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const baseCurrency = settings.data?.base_currency_code ?? '';
  const exponent = useCurrencyExponents()(baseCurrency);
  const money = useCallback(
    (value: string | number | null | undefined) => formatMoney(value, exponent),
    [exponent],
  );
  return { tax: settings.data?.tax_policy ?? FALLBACK, baseCurrency, exponent, money };
}
