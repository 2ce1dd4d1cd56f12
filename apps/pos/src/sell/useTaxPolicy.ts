import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { TaxPolicy } from './cart';

const FALLBACK: TaxPolicy = { vat_rates: { standard: 18, zero: 0, exempt: 0 }, prices_include_vat: true };

/** VAT rates and the base currency for the cart estimate, from the settings every user may read. */
export function useTillSettings(): { tax: TaxPolicy; baseCurrency: string } {
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  return {
    tax: settings.data?.tax_policy ?? FALLBACK,
    baseCurrency: settings.data?.base_currency_code ?? '',
  };
}
