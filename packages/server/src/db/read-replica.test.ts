import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStock, makeMedicine, makeMedicineId, openSessionFor } from '../testing/factory';
import { startTestServer, type TestServer, testingOnPostgres } from '../testing/harness';
import { query, testClusterDir } from './local-postgres';
import { type ReplicaPair, startReplicaPair, waitForReplay } from './local-replica';
import { openPostgres } from './postgres';
import { publishSafeRevision } from './revision-order';

/**
 * Central with DATABASE_REPLICA_URL on a real hot standby streaming from its primary (db/local-replica.ts).
 * The proof that an answer came from the replica: with the standby's replay paused, it lags the primary.
 */
describe.skipIf(!testingOnPostgres())(
  'read replica (PostgreSQL run only: streaming replication has no SQLite form)',
  () => {
    let pair: ReplicaPair;
    let t: TestServer;
    let admin: string;
    let cashier: { token: string };
    let medicine: string;
    let device: { id: string; token: string };

    const standby = (text: string) => query(pair.standby.urlOf('pharmacy'), text);
    /** The replica's feed reads up to the safe revision central publishes (a timer; here at once). */
    const publishedAndReplayed = async () => {
      await publishSafeRevision(t.context.db);
      await waitForReplay(pair);
    };
    const sell = async () => {
      const res = await t.post(
        '/api/v1/sales',
        {
          items: [{ medicine_id: medicine, quantity: 1 }],
          payment_lines: [{ method: 'cash', amount: 100 }],
          client_mutation_id: randomUUID(),
        },
        cashier.token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const reportedSales = async () => {
      const res = await t.get<{ totals: { sales_count: number } }>('/api/v1/reports/sales', admin);
      expect(res.status).toBe(200);
      return res.body.totals.sales_count;
    };
    const todaySales = async () => {
      const res = await t.get<{ today_sales_count: number }>('/api/v1/dashboard/summary', admin);
      expect(res.status).toBe(200);
      return res.body.today_sales_count;
    };
    const pull = (since: number) =>
      t.request<{ changes: unknown[]; next_revision: number; has_more: boolean; code?: string }>(
        'GET',
        `/api/v1/sync/pull?device_id=${device.id}&since=${since}&limit=1000`,
        { headers: { 'x-device-token': device.token } },
      );
    /** The revision a full pull from 0 reaches (following has_more). */
    const pulledHead = async () => {
      let since = 0;
      for (;;) {
        const res = await pull(since);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        since = res.body.next_revision;
        if (!res.body.has_more) return since;
      }
    };
    const snapshotRevision = async () => {
      const res = await fetch(`${t.baseUrl}/api/v1/sync/snapshot?device_id=${device.id}`, {
        headers: { 'x-device-token': device.token },
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text.trimEnd().split('\n').at(-1)).toContain('"type":"end"');
      return Number(res.headers.get('x-snapshot-revision'));
    };

    beforeAll(async () => {
      pair = await startReplicaPair(testClusterDir());
      await query(pair.primary.adminUrl, 'CREATE DATABASE pharmacy');
      t = await startTestServer({
        mode: 'central',
        databaseUrl: pair.primary.urlOf('pharmacy'),
        databaseReplicaUrl: pair.standby.urlOf('pharmacy'),
        databasePoolSize: 4,
      });
      admin = await t.adminToken();
      cashier = await t.userWithRole('cashier');
      await openSessionFor(t, cashier.token, 50);
      medicine = await makeMedicineId(t, { price: 10 });
      await addStock(t, medicine, 100);
      device = await t.registerDevice('Till R');
    }, 180_000);
    afterAll(async () => {
      await t?.close();
      await pair?.stop();
    });

    it('reports and the dashboard read the replica: replay paused, they lag the primary; resumed, they catch up', async () => {
      await sell();
      await waitForReplay(pair);
      expect(await reportedSales()).toBe(1);
      await standby('SELECT pg_wal_replay_pause()');
      try {
        await sell();
        expect(await t.count('sales')).toBe(2);
        expect(await reportedSales()).toBe(1);
        expect(await todaySales()).toBe(1);
      } finally {
        await standby('SELECT pg_wal_replay_resume()');
      }
      await waitForReplay(pair);
      expect(await reportedSales()).toBe(2);
      expect(await todaySales()).toBe(2);
    });

    it('pulls and snapshots read the replica; a cursor ahead of a lagging replica gets nothing new, never a reset', async () => {
      await publishedAndReplayed();
      const before = await t.headRevision();
      expect(await pulledHead()).toBe(before);
      await standby('SELECT pg_wal_replay_pause()');
      try {
        // More revisions than the 32 a sequence logs ahead: the standby's copy of the revision sequence (what
        // the feed compares a cursor with) then stays below the primary's head, as in a real lag.
        for (let i = 0; i < 40; i++) await makeMedicine(t);
        const head = await t.headRevision();
        const [seq] = await standby(
          "SELECT last_value AS n FROM pg_sequences WHERE sequencename = 'change_log_revision_seq'",
        );
        expect(Number(seq?.n)).toBeLessThan(head);
        // Served from the replica: its feed and its snapshot stop where its replay stopped.
        expect(await pulledHead()).toBe(before);
        expect(await snapshotRevision()).toBe(before);
        // The till's cursor came from the primary: the lagging replica answers nothing new, not RESET_REQUIRED.
        const ahead = await pull(head);
        expect(ahead.status, JSON.stringify(ahead.body)).toBe(200);
        expect(ahead.body).toMatchObject({ changes: [], next_revision: head, has_more: false });
        // A cursor ahead of the primary too is central restored from an older backup: still a reset.
        const restored = await pull(head + 1000);
        expect(restored.status).toBe(409);
        expect(restored.body.code).toBe('RESET_REQUIRED');
      } finally {
        await standby('SELECT pg_wal_replay_resume()');
      }
      await publishedAndReplayed();
      const caughtUp = await pull(before);
      expect(caughtUp.body.changes).toContainEqual(expect.objectContaining({ entity: 'medicine' }));
      expect(await pulledHead()).toBe(await t.headRevision());
    });

    it('what a report reads on a lagging replica never reaches the process cache the primary reads', async () => {
      await waitForReplay(pair);
      const before = (await t.get<{ timezone: string }>('/api/v1/settings', admin)).body.timezone;
      const after = before === 'Africa/Nairobi' ? 'Africa/Kampala' : 'Africa/Nairobi';
      await standby('SELECT pg_wal_replay_pause()');
      try {
        expect((await t.put('/api/v1/settings', { timezone: after }, admin)).status).toBe(200);
        // The PUT reloads the settings it wrote; a report may also come first, between the write's
        // invalidation and any reload (or after a write that only invalidates, such as a currency's).
        t.context.cache.clear();
        const report = await t.get<{ timezone: string }>('/api/v1/reports/sales', admin);
        expect(report.body.timezone).toBe(before);
        // The report loaded the replica's (old) settings after the PUT emptied the cache; the primary's
        // readers must still load the new ones.
        expect((await t.get<{ timezone: string }>('/api/v1/settings', admin)).body.timezone).toBe(after);
      } finally {
        await standby('SELECT pg_wal_replay_resume()');
      }
    });

    it('the replica is read-only even when its URL names a writable server', async () => {
      const conn = await openPostgres(pair.primary.urlOf('pharmacy'), { poolSize: 1, readOnly: true });
      try {
        await expect(
          conn.db.updateTable('settings').set({ updated_at: 'x' }).execute(),
        ).rejects.toMatchObject({ code: '25006' });
      } finally {
        await conn.db.destroy();
      }
    });

    it('with the replica stopped, reports, the dashboard, pulls and snapshots answer from the primary', async () => {
      await pair.standby.stop();
      await sell();
      const sales = await t.count('sales');
      expect(await reportedSales()).toBe(sales);
      expect(await todaySales()).toBe(sales);
      const head = await t.headRevision();
      expect(await pulledHead()).toBe(head);
      expect(await snapshotRevision()).toBe(head);
    });
  },
);
