/**
 * The password rule shared by the server and the till's UI, without schemas (the UI imports this file alone
 * through `@pharmacy/contracts/password`). The server also refuses the 10,000 most common passwords and a
 * list of 7,776 common English words, each also with digits or symbols added (`passwordCores`): lists too
 * large for the UI's bundle.
 */
export const PASSWORD_MIN_LENGTH = 8;

/** The rule in words, shown next to every new-password field. */
export const PASSWORD_RULE =
  'At least 8 characters; not a common password or word, also not with up to 3 digits or symbols added or letters written as digits (Passw0rd!, Pharmacy1), not the name of the pharmacy, the till or your branch, not one character repeated, not your email or its name part.';

/** The product's own words: what a guesser tries first at a pharmacy's till. */
export const PRODUCT_WORDS: readonly string[] = ['pharmacy', 'pharmacist', 'chemist', 'till'];

/** Letters written as digits or symbols, read back ('1' as i; `passwordCores` also tries it as l). */
const LEET = new Map(
  Object.entries({
    '0': 'o',
    '1': 'i',
    '!': 'i',
    '3': 'e',
    '4': 'a',
    '@': 'a',
    '5': 's',
    $: 's',
    '7': 't',
    '8': 'b',
    '9': 'g',
    '+': 't',
    '|': 'l',
  }),
);
const readBack = (text: string, one: string) =>
  [...text].map((c) => (c === '1' ? one : (LEET.get(c) ?? c))).join('');

/** No letter at all: digits, symbols, spaces. */
const isAffix = (text: string) => !/\p{L}/u.test(text);

/** Up to this many digits or symbols added at either end still count as the word itself. */
const MAX_AFFIX = 3;

/**
 * What a guesser would try the password as: lower case, without up to 3 digits or symbols at either end, each
 * as written and with leetspeak read back (Passw0rd! → password, Pharmacy1 → pharmacy, $umm3r12 → summer).
 */
export function passwordCores(password: string): string[] {
  const text = password.trim().toLowerCase();
  const cores = new Set<string>();
  for (let head = 0; head <= MAX_AFFIX; head++)
    for (let tail = 0; tail <= MAX_AFFIX && head + tail < text.length; tail++) {
      if (!isAffix(text.slice(0, head)) || !isAffix(text.slice(text.length - tail))) continue;
      const core = text.slice(head, text.length - tail);
      cores.add(core);
      cores.add(readBack(core, 'i'));
      cores.add(readBack(core, 'l'));
    }
  return [...cores];
}

/** A name as the words a password may be built on: "Main Branch" → main, branch, mainbranch. */
const wordsOf = (name: string): string[] => {
  const words = name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3);
  return [...words, words.join('')];
};

/**
 * Why a new password is refused by the rules the UI can check, or undefined: too short, whitespace only, one
 * character repeated, the email or its local part (case and surrounding spaces ignored), or built on the
 * product's own words, the email's name part or `names` (the branch's name and code) with up to 3 digits or
 * symbols added or leetspeak.
 */
export function passwordProblem(
  password: string,
  email?: string,
  names: readonly string[] = [],
): string | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.trim() === '') return 'must not be only spaces';
  if (new Set(password).size === 1) return 'must not be one character repeated';
  const lower = password.trim().toLowerCase();
  const address = email?.trim().toLowerCase();
  if (address && (lower === address || lower === address.split('@')[0]))
    return 'must not be your email or its name part';
  const own = new Set([
    ...PRODUCT_WORDS,
    ...names.flatMap(wordsOf),
    ...(address ? wordsOf(address.split('@')[0] ?? '') : []),
  ]);
  if (passwordCores(password).some((core) => own.has(core)))
    return 'must not be the name of the pharmacy, the till, your branch or your email, even with digits or symbols added';
  return undefined;
}
