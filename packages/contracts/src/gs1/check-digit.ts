/** GS1 mod-10 check digit for the digits that precede it (GTIN-8/12/13/14, SSCC, GLN). */
export function gs1CheckDigit(digitsWithoutCheck: string): number {
  if (!/^\d+$/.test(digitsWithoutCheck)) throw new TypeError('Check digit input must be digits only');
  let sum = 0;
  for (let i = 0; i < digitsWithoutCheck.length; i++) {
    const digit = digitsWithoutCheck.charCodeAt(digitsWithoutCheck.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

export function hasValidGs1CheckDigit(code: string): boolean {
  if (!/^\d{2,}$/.test(code)) return false;
  return gs1CheckDigit(code.slice(0, -1)) === Number(code.slice(-1));
}

/** Appends the computed check digit. */
export function withGs1CheckDigit(digitsWithoutCheck: string): string {
  return digitsWithoutCheck + String(gs1CheckDigit(digitsWithoutCheck));
}
