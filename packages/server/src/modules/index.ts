import type { ApiRouter } from '../http/route';
import { auditRoutes } from './audit/routes';
import { authRoutes } from './auth/routes';
import { branchRoutes } from './branches/routes';
import { currencyRoutes } from './currency/routes';
import { marketingRoutes } from './marketing/routes';
import { settingsRoutes } from './settings/routes';
import { userRoutes } from './users/routes';

/** Every feature area of /api/v1, one line each. */
export function registerModules(r: ApiRouter): void {
  authRoutes(r);
  userRoutes(r);
  branchRoutes(r);
  currencyRoutes(r);
  settingsRoutes(r);
  auditRoutes(r);
  marketingRoutes(r);
}
