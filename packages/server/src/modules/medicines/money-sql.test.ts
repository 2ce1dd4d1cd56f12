import { formatMinor } from '@pharmacy/contracts/money';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { money } from './store.sqlite';

/**
 * The Medicines page builds its JSON in SQL for speed, so the price text is written there by `money()`: it must
 * say exactly what contracts' formatMinor says, for every exponent a currency has.
 */
describe('money() in SQL and formatMinor', () => {
  it('write the same text for every amount from 0 to 100,000 minor units and some large ones, exponents 0 to 3', () => {
    const db = new Database(':memory:');
    const amounts = [
      ...Array.from({ length: 100_001 }, (_, i) => i),
      2_147_483_647,
      9_007_199_254_740_991,
      123_456_789_012,
    ];
    for (const exponent of [0, 1, 2, 3]) {
      const text = db.prepare(`SELECT ${money('value', exponent)} FROM json_each(?)`).pluck();
      const written = text.all(JSON.stringify(amounts)) as string[];
      const wrong = amounts.filter((a, i) => written[i] !== formatMinor(a, exponent));
      expect(wrong, `exponent ${exponent}`).toEqual([]);
    }
    db.close();
  });
});
