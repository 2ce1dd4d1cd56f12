import { passwordCores, passwordProblem } from '@pharmacy/contracts/password';
import { dictionary } from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';
import { Invalid } from './errors';

/** OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. Every password a person sets is hashed with it. */
export const PASSWORD_HASH_COST = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * The test suites' cost: argon2id at its floor (about 1 ms instead of 50-100 ms a hash), so a test server's
 * seeded users and each userWithRole do not dominate a test's time. Verification reads the cost from the hash
 * itself, so nothing else changes.
 */
export const TEST_COST = { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/**
 * The one switch lowering the cost: set by the test harnesses (packages/server/src/testing/harness.ts for
 * vitest and the servers it spawns, e2e/fixtures.ts for Playwright's). It takes both NODE_ENV=test and
 * PHARMACY_TEST_PASSWORD_COST=low, so neither variable alone, left over in a production environment, weakens a
 * stored password; the desktop bundle compiles NODE_ENV to "production". passwords.test.ts asserts both ways.
 */
export const TEST_PASSWORD_COST_ENV = { NODE_ENV: 'test', PHARMACY_TEST_PASSWORD_COST: 'low' } as const;

export const passwordHashCost = () =>
  process.env.NODE_ENV === TEST_PASSWORD_COST_ENV.NODE_ENV &&
  process.env.PHARMACY_TEST_PASSWORD_COST === TEST_PASSWORD_COST_ENV.PHARMACY_TEST_PASSWORD_COST
    ? TEST_COST
    : PASSWORD_HASH_COST;

/** Under the test cost, the hash of each password is computed once per process (seeded users, userWithRole). */
const testHashes = new Map<string, Promise<string>>();

export function hashPassword(password: string): Promise<string> {
  const cost = passwordHashCost();
  if (cost === PASSWORD_HASH_COST) return argon2.hash(password, cost);
  let hash = testHashes.get(password);
  if (!hash) {
    hash = argon2.hash(password, cost);
    testHashes.set(password, hash);
  }
  return hash;
}

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
