import type { SyncStatus } from '@pharmacy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { CreateCouponRequest } from '@pharmacy/contracts';
import express from 'express';
import { errorHandler } from '../../http/problem';
import { ApiRouter, created } from '../../http/route';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';
import { ADMIN, startTestServer, type TestServer, USER_PASSWORD } from '../../testing/harness';
import { SYSTEM } from '../audit/service';
import { createCoupon } from '../coupons/service';
import { AREAS, registerModules } from '../index';
import { centralWriteRoutes, registeredEntities, writtenAtCentral } from './registry';
import { tillReplicator } from './runtime';

/**
 * Issue 28.1: on a till connected to head office, a REST write of a record head office owns is made at head
 * office as the signed-in person and pulled back; offline it is refused in words; a single shop writes it
 * itself. A real central and a till of its main branch in process, on loopback, with a real replicator.
 */
let central: TestServer;
let till: TestServer;
let branch: string;
const emails: Record<'branch_manager' | 'cashier', string> = { branch_manager: '', cashier: '' };
const onTill = (role: keyof typeof emails) => till.login(emails[role], USER_PASSWORD);
const sync = () => tillReplicator(till.context)!.syncNow();
type Problem = { code: string; detail: string };

beforeAll(async () => {
  // Head office's tokens last 61 s, so a till renews its head office sign-in a second after it is made.
  central = await startTestServer({ mode: 'central', jwtTtlSeconds: 61 });
  branch = await central.mainBranchId();
  for (const role of ['branch_manager', 'cashier'] as const)
    emails[role] = (await central.userWithRole(role, branch)).email;
  const device = await central.registerDevice('Front counter 1', branch);
  till = await startTestServer({
    mode: 'till',
    centralUrl: central.baseUrl,
    syncDeviceId: device.id,
    syncDeviceToken: device.token,
    syncIntervalMs: 600_000,
    syncBackoffMaxMs: 200,
  });
  await sync();
}, 90_000);

afterAll(async () => {
  await till?.close();
  await central?.close();
});

describe('28.1: a connected till writes head office records at head office', () => {
  it('28.1: a branch manager at a connected till creates coupon WELCOME10; it is made at head office, the till holds it, and a sale with it is accepted at head office', async () => {
    const medicine = await makeMedicineId(central, { price: 10, name: 'Calpol 120mg' });
    await addStock(central, medicine, 20, { branchId: branch });
    await sync();

    const manager = await onTill('branch_manager');
    const made = await till.post<{ id: string; code: string }>(
      '/api/v1/coupons',
      { code: 'WELCOME10', discount_type: 'percent', discount_value: 10 },
      manager,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(await central.row('coupons', made.body.id)).toMatchObject({ code: 'WELCOME10' });
    // Pulled before the answer returned: the till's next read has it.
    expect(await till.row('coupons', made.body.id)).toMatchObject({ code: 'WELCOME10' });

    const cashier = await onTill('cashier');
    await openSessionFor(till, cashier);
    const sale = await till.post<{ id: string; coupon_id: string | null }>(
      '/api/v1/sales',
      { items: [{ medicine_id: medicine, quantity: 2 }], coupon_code: 'WELCOME10', print_receipt: false },
      cashier,
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body.coupon_id).toBe(made.body.id);
    await sync();
    const status = (await till.get<SyncStatus>('/api/v1/sync/status', manager)).body;
    expect([status.pending, status.rejected]).toEqual([0, 0]);
    expect(await central.row('sales', sale.body.id)).toMatchObject({ coupon_id: made.body.id });
  }, 60_000);

  it("28.1: head office's refusal comes back as it gave it, and the till writes nothing", async () => {
    const manager = await onTill('branch_manager');
    const before = await till.count('coupons');
    const again = await till.post<Problem>(
      '/api/v1/coupons',
      { code: 'WELCOME10', discount_type: 'percent', discount_value: 5 },
      manager,
    );
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/WELCOME10/);
    const bad = await till.post<Problem & { errors: { path: string }[] }>(
      '/api/v1/coupons',
      { code: 'HALF', discount_type: 'percent', discount_value: 150 },
      manager,
    );
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION']);
    expect(bad.body.errors.map((e) => e.path)).toContain('discount_value');
    expect(await till.count('coupons')).toBe(before);
  });

  it('28.1: the head office sign-in a till keeps is renewed near its end, again and again', async () => {
    const manager = await onTill('branch_manager');
    for (const code of ['RENEW1', 'RENEW2']) {
      await new Promise((r) => setTimeout(r, 1_100));
      const made = await till.post<{ id: string }>(
        '/api/v1/coupons',
        { code, discount_type: 'fixed', discount_value: 1 },
        manager,
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(await central.row('coupons', made.body.id)).toMatchObject({ code });
    }
  });

  it('28.1: a till that is not connected (a single shop) makes its coupons itself', async () => {
    const shop = await startTestServer({ mode: 'till' });
    try {
      const made = await shop.post<{ id: string }>(
        '/api/v1/coupons',
        { code: 'SHOP5', discount_type: 'fixed', discount_value: 5 },
        await shop.adminToken(),
      );
      expect(made.status).toBe(201);
      expect(await shop.row('coupons', made.body.id)).toMatchObject({ code: 'SHOP5' });
    } finally {
      await shop.close();
    }
  }, 30_000);

  it('28.1: every route of a module that holds a head office record is declared in the registry, or writes none', () => {
    // Routes of those modules that write no record head office owns (checks, uploads, the till's own lockout, a
    // person's acknowledgement of a notice, kept on each server).
    const writesNone = new Set([
      'post /currency/rates/check',
      'post /images/medicines/upload-url',
      'post /images/branding/upload-url',
      'post /users/:userId/unlock',
      'post /supplier-finance/batches/:batchId/quarantine',
      'post /notices/acknowledge',
    ]);
    const declared = centralWriteRoutes();
    const owning = AREAS.filter((a) =>
      (a.entities ?? []).some((e) => e.owner === 'central' && e.push === 'central-only'),
    );
    expect(owning.map((a) => a.name)).toContain('coupons');
    const undeclared: string[] = [];
    for (const area of owning) {
      const r = new ApiRouter(till.context);
      area.routes?.(r);
      for (const doc of r.docs) {
        const key = `${doc.method} ${doc.path}`;
        if (doc.method !== 'get' && doc.access !== 'public' && !declared.has(key) && !writesNone.has(key))
          undeclared.push(key);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('28.1: on a connected till, a write route the registry does not name cannot make a head office record: refused whole, in words', async () => {
    // The till's own route table, plus a route that makes a coupon as a side effect and is named nowhere.
    const r = new ApiRouter(till.context);
    registerModules(r);
    r.route({
      method: 'post',
      path: '/side-effect',
      tag: 'Test',
      summary: 'A write the registry does not name',
      roles: 'any',
      responses: { 201: { description: 'Made' } },
      handler: async () =>
        created(
          await createCoupon(
            till.context,
            SYSTEM,
            CreateCouponRequest.parse({ code: 'SIDE5', discount_type: 'fixed', discount_value: 5 }),
          ),
        ),
    });
    const app = express();
    app.use(express.json());
    app.use(r.mountPath, r.router);
    app.use(errorHandler);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const before = await till.counts(['coupons', 'change_log']);
      const res = await fetch(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/side-effect`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${await onTill('branch_manager')}` },
        },
      );
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({
        code: 'CENTRAL_OWNED',
        detail: 'Coupons are managed by head office; this till does not change them while it is connected.',
      });
      expect(await till.counts(['coupons', 'change_log'])).toEqual(before);
    } finally {
      server.close();
    }
  });

  // Last: head office goes away.
  it('28.1: offline, every write route of every entity head office owns is refused in words, and nothing is written', async () => {
    const admin = await till.login(ADMIN.email, ADMIN.password);
    const manager = await onTill('branch_manager');
    const counts = await till.counts(['coupons', 'medicines', 'suppliers', 'users', 'settings']);
    await central.close();

    const coupon = await till.post<Problem>(
      '/api/v1/coupons',
      { code: 'LATER', discount_type: 'percent', discount_value: 5 },
      manager,
    );
    expect([coupon.status, coupon.body.code]).toEqual([503, 'TILL_OFFLINE']);
    expect(coupon.body.detail).toBe(
      'Coupons are managed by head office; this till is offline — try again when it is connected.',
    );

    const entities = registeredEntities().filter(writtenAtCentral);
    expect(entities.map((e) => e.entity)).toEqual(
      expect.arrayContaining(['coupon', 'exchange_rate', 'medicine', 'supplier_invoice', 'supplier_payment']),
    );
    for (const entity of entities)
      for (const route of entity.rest) {
        const url = `/api/v1${route.path.replace(/:\w+/g, 'x1')}`;
        const res = await till.request<Problem>(route.method.toUpperCase(), url, { token: admin, body: {} });
        const expected = route.atConnectedTill === 'refused' ? [409, 'CENTRAL_OWNED'] : [503, 'TILL_OFFLINE'];
        expect([res.status, res.body.code], `${entity.entity}: ${route.method} ${route.path}`).toEqual(
          expected,
        );
        const labels = centralWriteRoutes()
          .get(`${route.method} ${route.path}`)!
          .entities.map((e) => `${e.label} are managed by head office`);
        expect(
          labels.some((l) => res.body.detail.startsWith(l)),
          res.body.detail,
        ).toBe(true);
      }
    expect(await till.counts(['coupons', 'medicines', 'suppliers', 'users', 'settings'])).toEqual(counts);
  }, 60_000);
});
