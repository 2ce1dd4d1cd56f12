import type { Router } from 'express';
import type { AppContext } from '../../app-context';
import { rawQuery } from '../../db/raw-query';
import { VERSION } from '../../version';
import { integrityProblem, watchSaleTables } from './integrity';

/**
 * Unversioned and public, so a liveness probe does not depend on the API version. The probe reads a real
 * table (the settings row's b-tree, through the schema), so a database whose schema or pages no longer
 * answer is reported as 503, where a constant SELECT 1 never touches the file. A till also checks the pages of
 * the tables a sale writes on a timer (PRAGMA quick_check, integrity.ts): damage found there is 503 with the
 * reason until a check finds them whole again.
 */
const settingsProbe = rawQuery<{ ok: number }>('SELECT 1 AS ok FROM settings LIMIT 1');

export function mountHealth(router: Router, app: AppContext): void {
  const ping = () => settingsProbe.first(app, []);
  watchSaleTables(app);
  router.get('/health', async (_req, res) => {
    const base = {
      version: VERSION,
      mode: app.config.mode,
      uptime_s: Math.round((Date.now() - app.startedAt) / 1000),
    };
    try {
      const started = performance.now();
      await ping();
      const damaged = integrityProblem(app);
      if (damaged) throw new Error(damaged);
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
