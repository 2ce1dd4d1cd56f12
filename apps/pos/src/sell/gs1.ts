/**
 * GS1 element strings as a keyboard-wedge scanner types a DataMatrix: an optional symbology prefix
 * (`]d2`, `]C1`, `]Q3`), then AI 01 (GTIN-14), 17 (expiry YYMMDD), 10 (batch), 21 (serial), the
 * variable ones ended by a GS character (or the end of the scan).
 */
export interface Gs1Scan {
  gtin: string;
  expiry?: string;
  batch?: string;
  serial?: string;
}

const GS = '\u001d';

export function parseGs1(raw: string): Gs1Scan | null {
  let s = raw.replace(/^\](d2|C1|Q3|e0)/, '');
  if (!/^01\d{14}/.test(s)) return null;
  const out: Gs1Scan = { gtin: s.slice(2, 16) };
  s = s.slice(16);
  while (s.length > 0) {
    if (s.startsWith(GS)) {
      s = s.slice(1);
      continue;
    }
    const ai = s.slice(0, 2);
    if (ai === '17' || ai === '15' || ai === '11') {
      const date = s.slice(2, 8);
      if (!/^\d{6}$/.test(date)) return out;
      if (ai === '17') {
        const day = date.slice(4, 6) === '00' ? '01' : date.slice(4, 6);
        out.expiry = `20${date.slice(0, 2)}-${date.slice(2, 4)}-${day}`;
      }
      s = s.slice(8);
    } else if (ai === '10' || ai === '21') {
      const rest = s.slice(2);
      const end = rest.indexOf(GS);
      const value = (end === -1 ? rest : rest.slice(0, end)).slice(0, 20);
      if (ai === '10') out.batch = value;
      else out.serial = value;
      s = rest.slice(value.length);
    } else {
      return out;
    }
  }
  return out;
}
