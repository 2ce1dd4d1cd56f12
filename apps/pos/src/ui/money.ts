/** Money on screen. The server sends decimal strings; client-side figures are estimates only. */

export function toNumber(value: string | number | null | undefined): number {
  const n = typeof value === 'number' ? value : Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** Rounds half away from zero to `decimals` places, as the server rounds minor units. */
export function roundMoney(value: number, decimals = 2): number {
  const f = 10 ** decimals;
  const scaled = Math.abs(value) * f;
  return (Math.sign(value) * Math.round(scaled + 1e-9)) / f;
}

export function formatMoney(value: string | number | null | undefined, decimals = 2): string {
  return roundMoney(toNumber(value), decimals).toFixed(decimals);
}
