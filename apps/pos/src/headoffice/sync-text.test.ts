import type { BooksComparison, SyncConflict, SyncStatus } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import {
  actionLabel,
  booksVerdict,
  bootstrapFraction,
  bootstrapText,
  heldText,
  resolutionText,
} from './sync-text';

const base: SyncStatus = {
  mode: 'till',
  configured: true,
  central_url: 'http://hq:8000',
  device_id: 'd',
  running: true,
  online: true,
  bootstrapped: false,
  last_attempt_at: null,
  last_success_at: null,
  last_push_at: null,
  last_pull_at: null,
  last_error: null,
  pending: 0,
  rejected: 0,
  open_conflicts: 0,
  cursor: 0,
  epoch: null,
};

describe('bootstrap progress', () => {
  it('shows rows received of the total while loading', () => {
    const s = { ...base, bootstrap_progress: { received: 250, total: 1000 } };
    expect(bootstrapFraction(s)).toBe(0.25);
    expect(bootstrapText(s)).toBe('Loading head office data: 250 of 1000 rows received…');
  });
  it('has no fraction without a total, and says when the till is ready', () => {
    expect(bootstrapFraction({ ...base, bootstrap_progress: { received: 5, total: null } })).toBeNull();
    expect(bootstrapText({ ...base, bootstrapped: true })).toMatch(/^Ready to sell/);
    expect(bootstrapText({ ...base, last_error: { code: 'OFFLINE', message: 'down', at: '' } })).toBe(
      'Waiting for head office: down',
    );
  });
});

describe("a till's own records", () => {
  const held = {
    total: 40,
    sales: 12,
    returns: 1,
    cash_sessions: 2,
    first_invoice: 'MAIN-1096-000001',
    last_invoice: 'MAIN-1096-000012',
    branch_id: null,
    open_session: false,
  };
  it('names the sales by their first and last invoice, then the rest', () => {
    expect(heldText(held)).toBe(
      '12 sales (MAIN-1096-000001 to MAIN-1096-000012), 1 return, 2 cash sessions, 25 other records',
    );
    expect(
      heldText({
        ...held,
        total: 1,
        sales: 1,
        returns: 0,
        cash_sessions: 0,
        last_invoice: held.first_invoice,
      }),
    ).toBe('1 sale (MAIN-1096-000001)');
  });
});

describe('books and review items in words', () => {
  const comparison: BooksComparison = {
    branch_id: '0',
    day: '2026-11-27',
    device_id: 'd',
    device_name: 'Front counter 1',
    checked_at: null,
    reported: true,
    agree: true,
    kinds: [],
  };
  const kind = (agree: boolean) => ({
    kind: 'sales' as const,
    till: { count: 1, total: 684 },
    central: { count: agree ? 1 : 0, total: agree ? 684 : 0 },
    missing_at_central: agree ? [] : ['MAIN-3C37-000004'],
    missing_at_till: [],
    differing: [],
    agree,
  });
  it('says whether a till has reported, agrees, or in how many kinds it differs', () => {
    expect(booksVerdict({ ...comparison, reported: false })).toBe(
      'Front counter 1 has not reported this day yet.',
    );
    expect(booksVerdict(comparison)).toMatch(/^The books agree/);
    expect(booksVerdict({ ...comparison, agree: false, kinds: [kind(false), kind(true)] })).toBe(
      'The books differ in 1 kind of record: see below.',
    );
  });
  it('names each action as the side it is taken on says it, and a resolution with its reason', () => {
    expect(actionLabel('retry', 'till')).toBe('Send again');
    expect(actionLabel('retry', 'central')).toBe('Apply now');
    expect(actionLabel('dismiss', 'till')).toBe('Dismiss…');
    const item = { resolution: 'dismiss', resolution_note: 'Sold in error' } as SyncConflict;
    expect(resolutionText(item)).toBe('Dismissed: Sold in error.');
    expect(resolutionText({ ...item, resolution: 'retry', resolution_note: '' })).toBe('Sent again.');
  });
});
