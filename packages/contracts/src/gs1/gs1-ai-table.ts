/**
 * Application Identifier rules from the GS1 General Specifications:
 * the AI length follows from its first two digits, and only a fixed list of prefixes has a
 * predefined data length (everything else ends at FNC1/GS or at the end of the symbol).
 */

// biome-ignore format: compact lookup table
const AI_LENGTH_BY_PREFIX: Readonly<Record<string, number>> = {
  '00': 2,
  '01': 2,
  '02': 2,
  '03': 2,
  '04': 2,
  '10': 2,
  '11': 2,
  '12': 2,
  '13': 2,
  '14': 2,
  '15': 2,
  '16': 2,
  '17': 2,
  '18': 2,
  '19': 2,
  '20': 2,
  '21': 2,
  '22': 2,
  '23': 3,
  '24': 3,
  '25': 3,
  '30': 2,
  '31': 4,
  '32': 4,
  '33': 4,
  '34': 4,
  '35': 4,
  '36': 4,
  '37': 2,
  '39': 4,
  '40': 3,
  '41': 3,
  '42': 3,
  '43': 4,
  '70': 4,
  '71': 3,
  '72': 4,
  '80': 4,
  '81': 4,
  '82': 4,
  '90': 2,
  '91': 2,
  '92': 2,
  '93': 2,
  '94': 2,
  '95': 2,
  '96': 2,
  '97': 2,
  '98': 2,
  '99': 2,
};

/** Data length (without the AI) of the predefined-length prefixes. */
// biome-ignore format: compact lookup table
const PREDEFINED_DATA_LENGTH: Readonly<Record<string, number>> = {
  '00': 18,
  '01': 14,
  '02': 14,
  '03': 14,
  '04': 16,
  '11': 6,
  '12': 6,
  '13': 6,
  '14': 6,
  '15': 6,
  '16': 6,
  '17': 6,
  '18': 6,
  '19': 6,
  '20': 2,
  '31': 6,
  '32': 6,
  '33': 6,
  '34': 6,
  '35': 6,
  '36': 6,
  '41': 13,
};

// biome-ignore format: compact lookup table
const VARIABLE_MAX_LENGTH: Readonly<Record<string, number>> = {
  '10': 20,
  '21': 20,
  '22': 20,
  '235': 28,
  '240': 30,
  '241': 30,
  '242': 6,
  '243': 20,
  '250': 30,
  '251': 30,
  '253': 30,
  '254': 20,
  '255': 25,
  '30': 8,
  '37': 8,
  '400': 30,
  '401': 30,
  '402': 17,
  '403': 30,
  '420': 20,
  '421': 12,
  '422': 3,
  '423': 15,
  '424': 3,
  '425': 15,
  '426': 3,
  '427': 3,
  '710': 20,
  '711': 20,
  '712': 20,
  '713': 20,
  '714': 20,
  '715': 20,
  '716': 20,
  '717': 20,
  '90': 30,
};

const NUMERIC_VARIABLE_PREFIXES = ['30', '37', '39', '242', '402', '422', '424', '426'];

/** AIs whose value is a YYMMDD date. */
export const DATE_AIS: ReadonlySet<string> = new Set(['11', '12', '13', '15', '16', '17']);

/** AIs whose value ends with a GS1 mod-10 check digit. */
export const CHECK_DIGIT_AIS: ReadonlySet<string> = new Set(['00', '01', '02', '03']);

export interface AiRule {
  ai: string;
  /** Exact data length for predefined-length AIs. */
  fixedLength?: number;
  maxLength: number;
  numeric: boolean;
}

export function aiLengthFor(text: string): number | undefined {
  return AI_LENGTH_BY_PREFIX[text.slice(0, 2)];
}

export function aiRule(ai: string): AiRule | undefined {
  const prefix = ai.slice(0, 2);
  if (AI_LENGTH_BY_PREFIX[prefix] !== ai.length || !/^\d+$/.test(ai)) return undefined;
  const fixedLength = PREDEFINED_DATA_LENGTH[prefix];
  if (fixedLength !== undefined) return { ai, fixedLength, maxLength: fixedLength, numeric: true };
  const maxLength =
    VARIABLE_MAX_LENGTH[ai] ??
    VARIABLE_MAX_LENGTH[prefix] ??
    (prefix === '39' ? 18 : Number(prefix) >= 91 ? 90 : 70);
  const numeric = NUMERIC_VARIABLE_PREFIXES.some((p) => ai.startsWith(p));
  return { ai, maxLength, numeric };
}
