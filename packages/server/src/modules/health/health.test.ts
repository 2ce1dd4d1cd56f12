import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../testing/harness';

describe('GET /health', () => {
  it('answers 200 with status, version and a database check, and 503 when the database is gone', async () => {
    const t = await startTestServer({ mode: 'central' });
    try {
      const ok = await t.get('/health');
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        status: 'ok',
        version: '0.1.0',
        mode: 'central',
        database: { status: 'ok' },
      });
      t.context.sqlite.close();
      const down = await t.get('/health');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unavailable', database: { status: 'error' } });
    } finally {
      await t.server.close().catch(() => undefined);
    }
  });
});
