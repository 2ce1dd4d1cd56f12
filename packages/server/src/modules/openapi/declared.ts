import type { AppContext } from '../../app-context';
import { ApiRouter } from '../../http/route';
import { registerModules } from '../index';
import { buildOpenApi } from './document';

/**
 * A context that nothing may use: registering routes only reads their declarations (schemas, roles, text);
 * a handler that ran here would be a bug, so every property access throws.
 */
const noContext = new Proxy({} as AppContext, {
  get(_target, key) {
    throw new Error(`the route table was built without a server; a route read the context's ${String(key)}`);
  },
});

/**
 * The OpenAPI document of every declared route, built without a database or a listening server: what every
 * server answers at /api/v1/openapi.json, since registering routes never reads the context.
 */
export function declaredOpenApi(): ReturnType<typeof buildOpenApi> {
  const api = new ApiRouter(noContext);
  registerModules(api);
  return buildOpenApi(api.docs);
}
