import { passwordCores, passwordProblem } from '@pharmacy/contracts/password';
import { dictionary } from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';
import { Invalid } from '../http/errors';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Verifies against a throwaway hash so an unknown email costs the same time as a wrong password. */
export async function burnVerify(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-0');
  await verifyPassword(await dummyHash, password);
}

/**
 * The 10,000 most common passwords (zxcvbn-ts's list, most common first) and the 7,776 common English words of
 * its diceware list, lower case: what an offline guesser tries first, each with a few digits or symbols added.
 */
let common: Set<string> | undefined;
const commonWords = () => {
  common ??= new Set(
    [...dictionary.passwords.slice(0, 10_000), ...dictionary.diceware].map((p) => p.toLowerCase()),
  );
  return common;
};

/**
 * Refuses a new password that breaks the shared rule (contracts' passwordProblem, with the branch's `names`)
 * or is a common password or word, also with up to 3 digits or symbols added at either end or leetspeak
 * (passwordCores: Passw0rd!, password1!), whatever its letter case: 400 naming `field`.
 */
export function assertPasswordAcceptable(
  password: string,
  email: string,
  field: string,
  names: readonly string[] = [],
): void {
  const words = commonWords();
  const problem =
    passwordProblem(password, email, names) ??
    (passwordCores(password).some((core) => words.has(core))
      ? 'is a common password or word, even with digits or symbols added'
      : undefined);
  if (problem)
    throw new Invalid(
      `${field}: ${problem}; choose another.`,
      [{ path: field, message: problem }],
      'WEAK_PASSWORD',
    );
}
