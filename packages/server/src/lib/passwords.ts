import { passwordProblem } from '@pharmacy/contracts';
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

/** The 10,000 most common passwords (zxcvbn-ts's list, most common first), lower case. */
let common: Set<string> | undefined;
const commonPasswords = () => {
  common ??= new Set(dictionary.passwords.slice(0, 10_000).map((p) => p.toLowerCase()));
  return common;
};

/**
 * Refuses a new password that breaks the shared rule (contracts' passwordProblem) or is one of the 10,000 most
 * common passwords, whatever its letter case: 400 naming `field`.
 */
export function assertPasswordAcceptable(password: string, email: string, field: string): void {
  const problem =
    passwordProblem(password, email) ??
    (commonPasswords().has(password.trim().toLowerCase())
      ? 'is one of the most common passwords'
      : undefined);
  if (problem)
    throw new Invalid(
      `${field}: ${problem}; choose another.`,
      [{ path: field, message: problem }],
      'WEAK_PASSWORD',
    );
}
