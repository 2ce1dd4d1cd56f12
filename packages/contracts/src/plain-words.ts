/**
 * The one place that turns a server's problem (status, code, detail, field errors) into the sentence a person
 * at the till reads. Server details are written for people already, but some name what only a developer knows:
 * a route ("POST /sessions/open"), a field path ("payment_lines.0.amount"), an operating-system error
 * ("ENOENT"), a column name ("credit_limit"). Those are rewritten here, and a few codes have a sentence of
 * their own. tests/error-words.test.ts walks every detail the server can send and fails on any that still
 * reads like the API. Zod-free: the till's UI bundle imports it.
 */

export interface ProblemWords {
  status: number;
  code: string;
  detail: string;
  errors?: readonly { path: string; message: string }[];
}

/** Codes whose detail is replaced by a sentence that says what to do at the till. */
const SENTENCES: Record<string, string> = {
  NO_OPEN_SESSION: 'No cash session is open on this till. Open one on Cash session (F6) first.',
  UNAUTHORIZED: 'You are signed out. Sign in again to go on.',
  INVALID_TOKEN: 'Your sign-in has expired. Sign in again to go on.',
  TOKEN_REVOKED: 'You were signed out here (or signed in again elsewhere). Sign in again to go on.',
  INTERNAL: 'Something went wrong on the till. Try again; if it happens again, tell your manager.',
};

/** What an operating system's error code means to a person at the counter. */
const ERRNO_WORDS: Record<string, string> = {
  ENOENT: 'it is not there (is it plugged in?)',
  EACCES: 'the till may not use it (permission denied)',
  EPERM: 'the till may not use it (permission denied)',
  EBUSY: 'another program is using it',
  ECONNREFUSED: 'nothing answered at that address',
  ECONNRESET: 'the connection was cut',
  EHOSTUNREACH: 'that address cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'it did not answer in time',
  ENOTFOUND: 'that name is not known on the network',
  EAI_AGAIN: 'that name could not be looked up',
  EPIPE: 'the connection was cut',
  EIO: 'the device failed to read or write',
  ENODEV: 'the device is not there',
  ENXIO: 'the device is not there',
};

const VERB_AND_PATH = /\b(?:GET|POST|PUT|PATCH|DELETE)\s+\/[^\s,;)]*/g;
/**
 * A route without its verb (`/sessions/open`, `/api/v1/sync/push`): two segments at least, never a file or a
 * device (`/dev/ttyUSB0`, `/etc/passwd`: a path a person typed is shown as typed).
 */
const FILE_ROOTS = '(?:dev|etc|tmp|var|usr|home|proc|sys|opt|mnt|media|run|srv|root|bin|lib|Users|Volumes)';
const API_PATH = new RegExp(
  `(?<![\\w.])\\/(?!${FILE_ROOTS}\\/)(?:api\\/v1\\/)?[a-z][a-z-]*\\/[^\\s,;)]+`,
  'g',
);
const ERRNO = /\b(E[A-Z]{2,}(?:_[A-Z]+)?)\b/g;
const SNAKE = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;
const FIELD_PATH = /\b[a-z][a-z0-9_]*(?:\.(?:\d+|[a-z][a-z0-9_]*))+\b/g;

/** A field path as words: `payment_lines.0.amount` is "payment line 1, amount". */
export function fieldWords(path: string): string {
  const parts = path.split('.').filter(Boolean);
  const out: string[] = [];
  for (const [i, part] of parts.entries()) {
    if (/^\d+$/.test(part)) continue;
    const words = part
      .split('_')
      .map((w) => ACRONYMS[w] ?? w)
      .join(' ');
    const index = parts[i + 1];
    out.push(index !== undefined && /^\d+$/.test(index) ? `${singular(words)} ${Number(index) + 1}` : words);
  }
  return out.join(', ') || 'this field';
}

/** Words a field name abbreviates that read in capitals. */
const ACRONYMS: Record<string, string> = {
  id: 'ID',
  vat: 'VAT',
  url: 'URL',
  tin: 'TIN',
  pin: 'PIN',
  po: 'PO',
};

const singular = (words: string) => words.replace(/ies$/, 'y').replace(/(?<!s)s$/, '');

/** A sentence with routes, field paths, errno codes and column names turned into plain words. */
export function plainWords(text: string): string {
  return text
    .replace(VERB_AND_PATH, 'the right screen')
    .replace(API_PATH, 'the right screen')
    .replace(ERRNO, (code) => ERRNO_WORDS[code] ?? 'the system refused')
    .replace(FIELD_PATH, (path) => fieldWords(path))
    .replace(SNAKE, (name) => fieldWords(name));
}

/** The sentence a person reads for a failed request. */
export function describeProblem(p: ProblemWords): string {
  const sentence = SENTENCES[p.code];
  if (sentence) return sentence;
  const fields = (p.errors ?? []).filter((e) => e.path !== '');
  if (p.code === 'VALIDATION' && fields.length > 0)
    return `Check ${fields
      .slice(0, 3)
      .map((e) => `${fieldWords(e.path)}: ${plainWords(e.message)}`)
      .join('; ')}`.replace(/\.?$/, '.');
  return plainWords(p.detail);
}

/** A stored value shown as a label: `quarantined` is "Quarantined", `in_transit` "In transit". */
export const labelOf = (value: string): string => {
  const words = value.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
