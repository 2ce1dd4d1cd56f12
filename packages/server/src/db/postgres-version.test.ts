import { describe, expect, it } from 'vitest';
import { OLDEST_POSTGRES, postgresVersionProblem } from './postgres';

describe('supported PostgreSQL versions', () => {
  it('accepts PostgreSQL 15 to 18 and refuses an older server in plain words', () => {
    expect(OLDEST_POSTGRES).toBe(15);
    for (const [num, version] of [
      [150000, '15.0'],
      [150020, '15.20 (Debian 15.20-0+deb12u1)'],
      [160004, '16.4'],
      [170002, '17.2'],
      [180004, '18.4'],
    ] as const)
      expect(postgresVersionProblem(num, version)).toBeNull();
    const problem = postgresVersionProblem(140011, '14.11');
    expect(problem).toContain('needs PostgreSQL 15 or later');
    expect(problem).toContain('runs PostgreSQL 14.11');
    expect(postgresVersionProblem(130016, '13.16')).toContain('runs PostgreSQL 13.16');
  });
});
