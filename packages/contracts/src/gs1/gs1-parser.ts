import { CHECK_DIGIT_AIS, DATE_AIS, aiLengthFor, aiRule } from './gs1-ai-table';
import { hasValidGs1CheckDigit } from './check-digit';

export const GS = '\u001d';

export type Gs1Symbology = 'datamatrix' | 'gs1-128' | 'qr' | 'databar' | 'human-readable' | 'unmarked';

export type Gs1ErrorCode =
  | 'EMPTY'
  | 'UNSUPPORTED_SYMBOLOGY'
  | 'UNKNOWN_AI'
  | 'TRUNCATED'
  | 'INVALID_LENGTH'
  | 'INVALID_CHARACTER'
  | 'INVALID_CHECK_DIGIT'
  | 'INVALID_DATE'
  | 'DUPLICATE_AI';

export class Gs1ParseError extends Error {
  override readonly name = 'Gs1ParseError';
  constructor(
    readonly code: Gs1ErrorCode,
    message: string,
    readonly position?: number,
  ) {
    super(message);
  }
}

export interface Gs1Element {
  ai: string;
  value: string;
}

export interface Gs1Data {
  symbology: Gs1Symbology;
  /** AI 01 as 14 digits, check digit validated. */
  gtin?: string;
  /** AI 17 as YYYY-MM-DD; day 00 means the last day of the month. */
  expiry?: string;
  /** AI 10. */
  batch?: string;
  /** AI 21. */
  serial?: string;
  /** Every element in scan order, including the ones above. */
  elements: Gs1Element[];
  ais: Record<string, string>;
}

export interface Gs1ParseOptions {
  /** Reference date for the GS1 two-digit-year rule; defaults to now. */
  now?: Date;
}

const SYMBOLOGY_IDS: Readonly<Record<string, Gs1Symbology>> = {
  ']d2': 'datamatrix',
  ']C1': 'gs1-128',
  ']Q3': 'qr',
  ']e0': 'databar',
};

export function parseGs1(raw: string, options: Gs1ParseOptions = {}): Gs1Data {
  let text = raw.replace(/[\r\n]+$/, '');
  if (text.length === 0) throw new Gs1ParseError('EMPTY', 'Empty GS1 data');
  let symbology: Gs1Symbology = 'unmarked';
  if (text.startsWith(']')) {
    const id = text.slice(0, 3);
    const known = SYMBOLOGY_IDS[id];
    if (!known)
      throw new Gs1ParseError('UNSUPPORTED_SYMBOLOGY', `Symbology ${id} does not carry GS1 data`, 0);
    symbology = known;
    text = text.slice(3);
  }
  if (text.length === 0) throw new Gs1ParseError('EMPTY', 'No data after the symbology identifier');

  const elements = text.startsWith('(') ? splitHumanReadable(text) : splitElementString(text);
  if (text.startsWith('(') && symbology === 'unmarked') symbology = 'human-readable';
  return interpret(symbology, elements, options.now ?? new Date());
}

function splitElementString(text: string): Gs1Element[] {
  const elements: Gs1Element[] = [];
  let pos = 0;
  while (pos < text.length) {
    // A leading FNC1 and a GS after a predefined-length field are redundant but common.
    if (text[pos] === GS) {
      pos++;
      continue;
    }
    const aiLength = aiLengthFor(text.slice(pos, pos + 2));
    const ai = aiLength === undefined ? undefined : text.slice(pos, pos + aiLength);
    const rule = ai === undefined ? undefined : aiRule(ai);
    if (ai === undefined || rule === undefined) {
      throw new Gs1ParseError(
        'UNKNOWN_AI',
        `Unknown application identifier at ${pos}: ${text.slice(pos, pos + 4)}`,
        pos,
      );
    }
    pos += ai.length;
    let value: string;
    if (rule.fixedLength !== undefined) {
      value = text.slice(pos, pos + rule.fixedLength);
      if (value.length < rule.fixedLength) {
        throw new Gs1ParseError('TRUNCATED', `AI (${ai}) needs ${rule.fixedLength} characters`, pos);
      }
      pos += rule.fixedLength;
    } else {
      const end = text.indexOf(GS, pos);
      value = text.slice(pos, end === -1 ? text.length : end);
      pos = end === -1 ? text.length : end + 1;
    }
    elements.push({ ai, value });
  }
  return elements;
}

function splitHumanReadable(text: string): Gs1Element[] {
  const elements: Gs1Element[] = [];
  const pattern = /\((\d{2,4})\)([^()]*)/y;
  let pos = 0;
  while (pos < text.length) {
    pattern.lastIndex = pos;
    const match = pattern.exec(text);
    if (!match) throw new Gs1ParseError('INVALID_CHARACTER', `Malformed bracketed GS1 data at ${pos}`, pos);
    const [whole, ai = '', value = ''] = match;
    if (!aiRule(ai)) throw new Gs1ParseError('UNKNOWN_AI', `Unknown application identifier (${ai})`, pos);
    elements.push({ ai, value: value.trim() });
    pos += whole.length;
  }
  return elements;
}

function interpret(symbology: Gs1Symbology, elements: Gs1Element[], now: Date): Gs1Data {
  if (elements.length === 0) throw new Gs1ParseError('EMPTY', 'No GS1 elements found');
  const data: Gs1Data = { symbology, elements, ais: {} };
  for (const { ai, value } of elements) {
    validateElement(ai, value);
    const previous = data.ais[ai];
    if (previous !== undefined && previous !== value) {
      throw new Gs1ParseError('DUPLICATE_AI', `AI (${ai}) appears twice with different values`);
    }
    data.ais[ai] = value;
    if (DATE_AIS.has(ai)) {
      const date = gs1DateToIso(value, now);
      if (ai === '17') data.expiry = date;
    }
    if (ai === '01') data.gtin = value;
    if (ai === '10') data.batch = value;
    if (ai === '21') data.serial = value;
  }
  return data;
}

function validateElement(ai: string, value: string): void {
  const rule = aiRule(ai);
  if (!rule) throw new Gs1ParseError('UNKNOWN_AI', `Unknown application identifier (${ai})`);
  if (rule.fixedLength !== undefined ? value.length !== rule.fixedLength : value.length > rule.maxLength) {
    throw new Gs1ParseError('INVALID_LENGTH', `AI (${ai}) has ${value.length} characters`);
  }
  if (value.length === 0) throw new Gs1ParseError('INVALID_LENGTH', `AI (${ai}) is empty`);
  if (rule.numeric ? !/^\d+$/.test(value) : !/^[\x21-\x7e]+$/.test(value)) {
    throw new Gs1ParseError('INVALID_CHARACTER', `AI (${ai}) contains characters it does not allow`);
  }
  if (CHECK_DIGIT_AIS.has(ai) && !hasValidGs1CheckDigit(value)) {
    throw new Gs1ParseError('INVALID_CHECK_DIGIT', `AI (${ai}) ${value} has a wrong check digit`);
  }
}

/** YYMMDD to YYYY-MM-DD using the GS1 sliding century window (General Specifications 7.12). */
export function gs1DateToIso(yymmdd: string, now: Date = new Date()): string {
  if (!/^\d{6}$/.test(yymmdd)) throw new Gs1ParseError('INVALID_DATE', `Not a YYMMDD date: ${yymmdd}`);
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  let day = Number(yymmdd.slice(4, 6));
  const currentYear = now.getUTCFullYear();
  const difference = yy - (currentYear % 100);
  let century = Math.floor(currentYear / 100);
  if (difference >= 51) century--;
  else if (difference <= -50) century++;
  const year = century * 100 + yy;
  if (month < 1 || month > 12) throw new Gs1ParseError('INVALID_DATE', `Invalid month in ${yymmdd}`);
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day === 0) day = lastDay;
  if (day > lastDay) throw new Gs1ParseError('INVALID_DATE', `Invalid day in ${yymmdd}`);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export interface Gs1EncodeOptions {
  /** Prefix such as "]d2"; none by default. */
  symbologyId?: string;
  /** Produce "(01)...(17)..." instead of the GS-separated element string. */
  humanReadable?: boolean;
}

/** Inverse of parseGs1: GS terminates every variable-length element except the last. */
export function encodeGs1(elements: readonly Gs1Element[], options: Gs1EncodeOptions = {}): string {
  if (options.humanReadable) return elements.map((e) => `(${e.ai})${e.value}`).join('');
  let out = options.symbologyId ?? '';
  elements.forEach((element, index) => {
    const rule = aiRule(element.ai);
    if (!rule) throw new Gs1ParseError('UNKNOWN_AI', `Unknown application identifier (${element.ai})`);
    out += element.ai + element.value;
    if (rule.fixedLength === undefined && index < elements.length - 1) out += GS;
  });
  return out;
}
