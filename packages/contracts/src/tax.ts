/**
 * Tax rules shared by the server and the till's UI, without schemas (the UI imports this file alone through
 * `@pharmacy/contracts/tax`, so zod stays out of its bundle).
 */

/**
 * The rate in percent of a VAT category, or undefined when the tax policy does not define it. Own keys only:
 * a category named like an Object method ("constructor", "toString") is unknown unless the policy defines it.
 */
export function vatRateOf(
  policy: { vat_rates: Record<string, number> },
  category: string,
): number | undefined {
  return Object.hasOwn(policy.vat_rates, category) ? policy.vat_rates[category] : undefined;
}
