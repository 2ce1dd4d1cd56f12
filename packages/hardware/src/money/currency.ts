// ISO 4217 exponents that differ from the usual 2; the server's minor units follow the same table.
const MINOR_UNIT_EXCEPTIONS: Readonly<Record<string, number>> = {
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

export function currencyMinorUnits(currencyCode: string): number {
  return MINOR_UNIT_EXCEPTIONS[currencyCode.toUpperCase()] ?? 2;
}
