import { describe, expect, it } from 'vitest';
import { tenderFigures } from './tender';

const none = { cash: Number.NaN, card: Number.NaN, mobile_money: Number.NaN, credit: Number.NaN };

describe('tender figures in minor units', () => {
  it('adds what was paid exactly (no 0.1 + 0.2 drift) and gives change from the total', () => {
    const f = tenderFigures({
      estimateTotalMinor: 30,
      rate: null,
      exp: 2,
      baseExp: 2,
      amounts: { ...none, cash: 0.1, card: 0.2 },
    });
    expect(f).toMatchObject({ due: 30, paid: 30, remaining: 0, change: 0, overpaid: false });
  });

  it('works in a 0- and a 3-decimal currency', () => {
    expect(
      tenderFigures({
        estimateTotalMinor: 1180,
        rate: null,
        exp: 0,
        baseExp: 0,
        amounts: { ...none, cash: 2000 },
      }),
    ).toMatchObject({ paid: 2000, change: 820 });
    expect(
      tenderFigures({
        estimateTotalMinor: 1180,
        rate: null,
        exp: 3,
        baseExp: 3,
        amounts: { ...none, cash: 1 },
      }),
    ).toMatchObject({ paid: 1000, remaining: 180 });
  });

  it('converts the base total at the rate as the server does, and waits while the rate is unknown', () => {
    // 1 EUR = 1.25 USD: 10.00 USD is 8.00 EUR
    expect(
      tenderFigures({ estimateTotalMinor: 1000, rate: '1.25', exp: 2, baseExp: 2, amounts: none }).due,
    ).toBe(800);
    expect(
      tenderFigures({ estimateTotalMinor: 1000, rate: undefined, exp: 2, baseExp: 2, amounts: none }),
    ).toMatchObject({ due: null, remaining: null });
  });

  it('refuses card above the total (change only from cash) and ignores typed amounts that are no amount', () => {
    const f = tenderFigures({
      estimateTotalMinor: 500,
      rate: null,
      exp: 2,
      baseExp: 2,
      amounts: { ...none, card: 6, cash: -3, credit: 0.001 },
    });
    expect(f).toMatchObject({ paid: 600, overpaid: true });
  });
});

describe('27.9: money fields hold only what the currency can', () => {
  it('27.9: more decimals than the currency has, or an absurd figure, is a plain problem and counts nothing', () => {
    const f = tenderFigures({
      estimateTotalMinor: 150,
      rate: null,
      exp: 2,
      baseExp: 2,
      amounts: { ...none, cash: 1.505, card: 5_000_000_000 },
    });
    expect(f.problems).toEqual({
      cash: 'This currency has 2 decimal places: enter at most 2 after the point.',
      card: 'That is more than any payment at this till: enter less than 1,000,000,000.',
    });
    expect(f.paid).toBe(0);
    const whole = tenderFigures({
      estimateTotalMinor: 150,
      rate: null,
      exp: 0,
      baseExp: 0,
      amounts: { ...none, cash: 2.5 },
    });
    expect(whole.problems.cash).toBe('This currency has no cents: enter a whole amount.');
  });
});
