import { minorToNumber, parseMoneyInput } from '@pharmacy/contracts/money';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { useCurrencyExponents } from '../ui/money';

/** The base currency's decimals (costs, supplier invoices and payments are in it). */
export function useBaseExponent(): number {
  const exponentOf = useCurrencyExponents();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  return exponentOf(settings.data?.base_currency_code);
}

/**
 * What the user typed as an amount for a request body (the API takes numbers), exact through the money
 * module; null when it is not an amount in that currency. Blank is null too.
 */
export function moneyForRequest(text: string, exponent: number): number | null {
  if (text.trim() === '') return null;
  const minor = parseMoneyInput(text, exponent);
  return minor === null ? null : minorToNumber(minor, exponent);
}
