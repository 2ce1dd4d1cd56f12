import type { Router } from 'express';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { VERSION } from '../../version';

/**
 * Unversioned and public, so a liveness probe does not depend on the API version. The probe reads a real
 * table (the settings row's b-tree, through the schema), so a database whose schema or pages no longer
 * answer is reported as 503, where a constant SELECT 1 never touches the file.
 */
export function mountHealth(router: Router, app: AppContext): void {
  const statement = app.sqlite?.prepare('SELECT 1 AS ok FROM settings LIMIT 1');
  const ping = statement
    ? async () => statement.get()
    : async () => sql`SELECT 1 AS ok FROM settings LIMIT 1`.execute(app.db);
  router.get('/health', async (_req, res) => {
    const base = {
      version: VERSION,
      mode: app.config.mode,
      uptime_s: Math.round((Date.now() - app.startedAt) / 1000),
    };
    try {
      const started = performance.now();
      await ping();
      const latency = Math.round((performance.now() - started) * 1000) / 1000;
      res.json({ status: 'ok', ...base, database: { status: 'ok', latency_ms: latency } });
    } catch (err) {
      res.status(503).json({
        status: 'unavailable',
        ...base,
        database: { status: 'error', detail: err instanceof Error ? err.message : 'database unavailable' },
      });
    }
  });
}
