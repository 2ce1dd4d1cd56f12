import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_HASH_COST, passwordHashCost, verifyPassword } from './passwords';

const saved = { NODE_ENV: process.env.NODE_ENV, COST: process.env.PHARMACY_TEST_PASSWORD_COST };
afterEach(() => {
  process.env.NODE_ENV = saved.NODE_ENV;
  if (saved.COST === undefined) delete process.env.PHARMACY_TEST_PASSWORD_COST;
  else process.env.PHARMACY_TEST_PASSWORD_COST = saved.COST;
});

/** The parameters a stored hash was made with: $argon2id$v=19$m=…,t=…,p=…$salt$hash. */
const paramsOf = (hash: string) => hash.split('$')[3];

describe('password hashing cost', () => {
  it('hashes with OWASP argon2id parameters (19 MiB, 2 passes, 1 lane) outside the test harness', async () => {
    expect(PASSWORD_HASH_COST).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    process.env.NODE_ENV = 'production';
    delete process.env.PHARMACY_TEST_PASSWORD_COST;
    const hash = await hashPassword('Production#Cost-1');
    expect(hash.startsWith('$argon2id$v=19$')).toBe(true);
    expect(paramsOf(hash)).toBe('m=19456,p=1,t=2');
    expect(await verifyPassword(hash, 'Production#Cost-1')).toBe(true);
  });

  it('ignores the test switch unless NODE_ENV is test, and NODE_ENV=test alone', async () => {
    process.env.PHARMACY_TEST_PASSWORD_COST = 'low';
    for (const env of ['production', 'development', '']) {
      process.env.NODE_ENV = env;
      expect(passwordHashCost()).toBe(PASSWORD_HASH_COST);
    }
    expect(paramsOf(await hashPassword('Left#Over-Switch-1'))).toBe('m=19456,p=1,t=2');
    process.env.NODE_ENV = 'test';
    delete process.env.PHARMACY_TEST_PASSWORD_COST;
    expect(passwordHashCost()).toBe(PASSWORD_HASH_COST);
  });

  it('lowers the cost only with both NODE_ENV=test and the harness switch; such hashes still verify', async () => {
    process.env.NODE_ENV = 'test';
    process.env.PHARMACY_TEST_PASSWORD_COST = 'low';
    const hash = await hashPassword('Test#Cost-Low-1');
    expect(paramsOf(hash)).toBe('m=1024,p=1,t=1');
    expect(await verifyPassword(hash, 'Test#Cost-Low-1')).toBe(true);
    expect(await verifyPassword(hash, 'Test#Cost-Low-2')).toBe(false);
  });
});
