import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { makeMedicine } from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';
import { saleTemplate } from '../../testing/pushed-sale';
import { type OutboxItem, TillStore } from './till-store';
import { setTillBranch } from './till-identity';

/**
 * Issue 28.4: every rejected change is a review item in words, on central and on the till, with the actions
 * that fit it; every action answers 2xx or 4xx, never 500.
 */
type Row = Record<string, unknown>;
type Item = {
  id: string;
  title: string;
  reason: string;
  actions: string[];
  side: string;
  status: string;
  resolution: string | null;
  resolution_note: string;
};
type Rejected = { client_mutation_id: string; code: string; message: string; conflict_id: string };

let t: TestServer;
let admin: string;
let other: string;
let till: { id: string; token: string };
let manager: { id: string; token: string };
let sale: Awaited<ReturnType<typeof saleTemplate>>;

beforeAll(async () => {
  t = await startTestServer({ mode: 'central' });
  admin = await t.adminToken();
  other = await t.createBranch('REVIEWB');
  manager = await t.userWithRole('branch_manager');
  till = await t.registerDevice('Review till');
  sale = await saleTemplate(t, manager.token);
}, 60_000);
afterAll(() => t.close());

const change = (entity: string, payload: Row) => ({
  client_mutation_id: newId(),
  entity,
  op: 'upsert',
  entity_id: String(payload.id),
  payload,
});

async function push(changes: unknown[]): Promise<{ accepted: Row[]; rejected: Rejected[] }> {
  const res = await t.request<{ accepted: Row[]; rejected: Rejected[] }>('POST', '/api/v1/sync/push', {
    body: { device_id: till.id, changes },
    headers: { 'x-device-token': till.token },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function itemOf(conflictId: string): Promise<Item> {
  const list = await t.get<{ items: Item[] }>('/api/v1/sync/conflicts?page_size=100', manager.token);
  const found = list.body.items.find((i) => i.id === conflictId);
  if (!found) throw new Error(`no review item ${conflictId}`);
  return found;
}

/** A sale naming a coupon head office does not hold (made at a till as WELCOME10). */
const couponSale = (): Row => ({
  ...sale(),
  coupon_id: newId(),
  coupon_code: 'WELCOME10',
  coupon_discount: 0,
});

/** Each kind of rejection central records, made afresh. */
const MAKERS: Record<string, () => Promise<Rejected>> = {
  'a sale naming an unknown coupon': async () => (await push([change('sale', couponSale())])).rejected[0]!,
  "a sale of another branch's": async () =>
    (await push([change('sale', { ...sale(), branch_id: other })])).rejected[0]!,
  'a catalogue edit (head office owns it)': async () => {
    const medicine = await makeMedicine(t, { selling_price: 10 });
    const row = (await t.row('medicines', medicine.id)) as Row;
    return (await push([change('medicine', { ...row, selling_price: 1 })])).rejected[0]!;
  },
};

const ACTIONS: Row[] = [
  { resolution: 'retry' },
  { resolution: 'keep_till' },
  { resolution: 'keep_central' },
  { resolution: 'merged', payload: { id: 'not-the-row' } },
  { resolution: 'dismiss' },
  { resolution: 'dismiss', reason: 'Sold in error; refunded in cash' },
];

describe('28.4: a rejected change is a review item in words at head office', () => {
  it('28.4: a sale naming a coupon head office lacks reads "Sale <number>, <amount>" and "rejected: the coupon WELCOME10 is not known at head office"', async () => {
    const payload = couponSale();
    const refused = (await push([change('sale', payload)])).rejected[0]!;
    expect(refused.code).toBe('CONSTRAINT');
    expect(refused.message).toBe('The coupon WELCOME10 is not known at head office.');
    const item = await itemOf(refused.conflict_id);
    expect(item.side).toBe('central');
    expect(item.title).toBe(
      `Sale ${payload.invoice_number}, ${(Number(payload.total_amount) / 100).toFixed(2)}`,
    );
    expect(item.reason).toBe('rejected: the coupon WELCOME10 is not known at head office');
    expect(item.actions).toEqual(['retry', 'dismiss']);
  });

  it('28.4: a sale under an invoice counter another sale of its till holds says so, not that it names an unknown sale', async () => {
    const first = sale();
    expect((await push([change('sale', first)])).rejected).toEqual([]);
    const refused = (await push([change('sale', { ...sale(), icv: first.icv })])).rejected[0]!;
    expect(refused.code).toBe('CONSTRAINT');
    expect(refused.message).toBe(
      `The till's invoice counter ${first.icv} is already sale ${first.invoice_number}'s at head office.`,
    );
    expect((await itemOf(refused.conflict_id)).reason).toContain('invoice counter');
  });

  it('28.4: a change head office refuses outright offers dismiss only, and says why in words', async () => {
    const item = await itemOf((await MAKERS["a sale of another branch's"]!()).conflict_id);
    expect(item.reason).toBe('rejected: it belongs to another branch than this till’s');
    expect(item.actions).toEqual(['dismiss']);
  });

  it('28.4: retry applies the rejected sale once the record it needed exists, and closes the item', async () => {
    const sessionRow = (await t.query<Row>('SELECT * FROM cash_sessions LIMIT 1'))[0]!;
    const session = { ...sessionRow, id: newId(), status: 'closed', closed_at: sessionRow.opened_at };
    const payload: Row = { ...sale(), session_id: session.id };
    const refused = (await push([change('sale', payload)])).rejected[0]!;
    expect(refused.message).toBe(`The cash session ${session.id.slice(0, 8)} is not known at head office.`);
    // Too early: the session is still missing; the item stays open and says why.
    const early = await t.post<Row>(
      `/api/v1/sync/conflicts/${refused.conflict_id}/resolve`,
      { resolution: 'retry' },
      manager.token,
    );
    expect(early.status).toBe(409);
    expect((await itemOf(refused.conflict_id)).status).toBe('open');
    expect((await push([change('cash_session', session)])).accepted).toHaveLength(1);
    const res = await t.post<Item>(
      `/api/v1/sync/conflicts/${refused.conflict_id}/resolve`,
      { resolution: 'retry' },
      manager.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.resolution).toBe('retry');
    expect(await t.row('sales', payload.id)).toBeDefined();
  });

  it('28.4: dismiss needs a reason and keeps it', async () => {
    const refused = await MAKERS['a sale naming an unknown coupon']!();
    const url = `/api/v1/sync/conflicts/${refused.conflict_id}/resolve`;
    expect((await t.post(url, { resolution: 'dismiss' }, manager.token)).status).toBe(400);
    const res = await t.post<Item>(url, { resolution: 'dismiss', reason: 'Sold in error' }, manager.token);
    expect(res.status).toBe(200);
    expect([res.body.resolution, res.body.resolution_note, res.body.actions]).toEqual([
      'dismiss',
      'Sold in error',
      [],
    ]);
  });

  for (const [kind, make] of Object.entries(MAKERS))
    it(`28.4: every action on ${kind} answers 2xx or 4xx, never 500`, async () => {
      for (const body of ACTIONS) {
        const refused = await make();
        const res = await t.post<Row>(`/api/v1/sync/conflicts/${refused.conflict_id}/resolve`, body, admin);
        expect(res.status, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        expect([200, 400, 403, 409]).toContain(res.status);
        const item = await itemOf(refused.conflict_id);
        expect(item.status).toBe(res.status === 200 ? 'resolved' : 'open');
      }
    });
});

describe('28.4: a rejected push is a review item on the till too', () => {
  let tillServer: TestServer;
  let tillManager: { token: string };
  beforeAll(async () => {
    tillServer = await startTestServer({ mode: 'till' });
    tillManager = await tillServer.userWithRole('branch_manager');
  }, 60_000);
  afterAll(() => tillServer.close());

  /** Central's answer to a batch of this till's outbox: every change rejected with `code`. */
  async function rejectAll(batch: OutboxItem[], code: string, message: string, conflictId: string) {
    await new TillStore(tillServer.context).recordPushResult(batch, {
      accepted: [],
      rejected: batch.map((b, i) => ({
        client_mutation_id: b.change.client_mutation_id,
        code,
        message,
        conflict_id: i === 0 ? conflictId : newId(),
      })),
    });
  }

  /** A change of this till's outbox, answered by central as rejected (the answer the replicator records). */
  async function rejectedOnTill(
    code: string,
    message: string,
  ): Promise<{ conflictId: string; clientMutationId: string; change: OutboxItem['change'] }> {
    await tillServer.exec("INSERT OR REPLACE INTO sync_meta (key, value) VALUES ('bootstrapped', '1')");
    // A new change of the cash session: opened, or (already open) a break started or ended.
    let moved = false;
    for (const step of ['open', 'break/start', 'break/end']) {
      const res = await tillServer.post(`/api/v1/sessions/${step}`, { opening_float: 0 }, tillManager.token);
      if (res.status < 300) {
        moved = true;
        break;
      }
    }
    expect(moved).toBe(true);
    const store = new TillStore(tillServer.context);
    const batch = (await store.outbox(1000, 10_000_000)).filter((b) => b.change.entity === 'cash_session');
    expect(batch.length).toBeGreaterThan(0);
    const clientMutationId = batch[0]!.change.client_mutation_id;
    const conflictId = newId();
    await rejectAll(batch, code, message, conflictId);
    return { conflictId, clientMutationId, change: batch[0]!.change };
  }

  it('28.4: the till lists its rejected change under the id head office gave it, in words, and counts it', async () => {
    const { conflictId } = await rejectedOnTill(
      'CONSTRAINT',
      'The cash session 0193abcd is not known at head office.',
    );
    const list = await tillServer.get<{ items: Item[] }>('/api/v1/sync/conflicts', tillManager.token);
    const item = list.body.items.find((i) => i.id === conflictId);
    expect(item).toMatchObject({
      side: 'till',
      reason: 'rejected: the cash session 0193abcd is not known at head office',
      actions: ['retry', 'dismiss'],
    });
    expect(item!.title).toMatch(/^Cash session opened \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    const status = await tillServer.get<{ rejected: number; open_conflicts: number }>(
      '/api/v1/sync/status',
      tillManager.token,
    );
    expect(status.body.open_conflicts).toBe(list.body.items.filter((i) => i.status === 'open').length);
  });

  it("28.4: a rejected change without a branch of its own is the till's branch's to review", async () => {
    setTillBranch(tillServer.context, await tillServer.mainBranchId());
    const medicine = await makeMedicine(tillServer, { name: 'Tillmade 5 mg', selling_price: 4 });
    const batch = (await new TillStore(tillServer.context).outbox(1000, 10_000_000)).filter(
      (b) => b.change.entity === 'medicine' && b.change.entity_id === medicine.id,
    );
    expect(batch.length).toBeGreaterThan(0);
    const conflictId = newId();
    await rejectAll(batch, 'CENTRAL_ONLY', 'Head office owns the catalogue.', conflictId);
    const list = await tillServer.get<{ items: Item[] }>('/api/v1/sync/conflicts', tillManager.token);
    expect(list.body.items.find((i) => i.id === conflictId)).toMatchObject({
      title: 'Medicine Tillmade 5 mg',
      reason: 'rejected: head office manages these records; make the change at head office',
      actions: ['dismiss'],
    });
  });

  it('28.4: a rejected change head office then applies (retried there) is settled on the till when it is pulled', async () => {
    const { conflictId, clientMutationId, change } = await rejectedOnTill(
      'CONSTRAINT',
      'The change breaks a database rule.',
    );
    const rejectedBefore = (await new TillStore(tillServer.context).counts()).rejected;
    await new TillStore(tillServer.context).applyPullPage({
      epoch: 'review-test',
      next_revision: 10_000,
      has_more: false,
      changes: [
        {
          revision: 10_000,
          entity: change.entity,
          entity_id: change.entity_id!,
          op: 'upsert',
          payload: change.payload,
          branch_id: String((change.payload as Row).branch_id),
        },
      ],
    });
    const list = await tillServer.get<{ items: Item[] }>(
      '/api/v1/sync/conflicts?status=resolved',
      tillManager.token,
    );
    expect(list.body.items.find((i) => i.id === conflictId)).toMatchObject({
      resolution: 'retry',
      resolution_note: 'Applied at head office.',
    });
    const rows = await tillServer.query<{ sync_status: string }>(
      'SELECT sync_status FROM change_log WHERE client_mutation_id = ?',
      clientMutationId,
    );
    expect(rows.map((r) => r.sync_status)).toEqual(rows.map(() => 'accepted'));
    // Every rejection of that record is settled (an earlier one of the same session too).
    const left = await tillServer.query<{ n: number }>(
      "SELECT count(*) AS n FROM change_log WHERE entity_id = ? AND sync_status = 'rejected'",
      change.entity_id,
    );
    expect(left[0]!.n).toBe(0);
    expect((await new TillStore(tillServer.context).counts()).rejected).toBeLessThan(rejectedBefore);
  });

  it('28.4: retry on the till puts the change back in the outbox under a new mutation id', async () => {
    const { conflictId, clientMutationId } = await rejectedOnTill(
      'CONSTRAINT',
      'The change breaks a database rule.',
    );
    const res = await tillServer.post<Item>(
      `/api/v1/sync/conflicts/${conflictId}/resolve`,
      { resolution: 'retry' },
      tillManager.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const outbox = await new TillStore(tillServer.context).outbox(1000, 10_000_000);
    const again = outbox.find((o) => o.change.client_mutation_id.startsWith(`${clientMutationId}~retry-`));
    expect(again).toBeDefined();
    // A second retry of the same item is refused: it is resolved.
    const twice = await tillServer.post(
      `/api/v1/sync/conflicts/${conflictId}/resolve`,
      { resolution: 'retry' },
      tillManager.token,
    );
    expect(twice.status).toBe(409);
  });

  it('28.4: dismiss on the till takes the change out of the outbox with its reason; every other action is 4xx', async () => {
    const { conflictId, clientMutationId } = await rejectedOnTill('OTHER_BRANCH', 'Another branch.');
    const url = `/api/v1/sync/conflicts/${conflictId}/resolve`;
    for (const body of ACTIONS.slice(0, 5)) {
      const res = await tillServer.post(url, body, tillManager.token);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const res = await tillServer.post<Item>(url, ACTIONS[5]!, tillManager.token);
    expect(res.status).toBe(200);
    expect(res.body.resolution_note).toBe('Sold in error; refunded in cash');
    const left = await tillServer.query<{ n: number }>(
      "SELECT count(*) AS n FROM change_log WHERE client_mutation_id = ? AND sync_status = 'rejected'",
      clientMutationId,
    );
    expect(left[0]!.n).toBe(0);
  });
});
