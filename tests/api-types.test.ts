import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesSource, declaredOpenApi } from '../packages/server/src/api-types';

/**
 * packages/contracts/src/api-paths.ts (the route types tsc holds the UI's client to) is generated from the
 * route declarations. A route changed without `npm run gen:api-types` would leave the client checked against
 * the old routes: this regenerates the file in memory and fails when the committed one differs.
 */
describe('the generated API types', () => {
  it('are what the route declarations generate now (else run npm run gen:api-types)', async () => {
    const fresh = (await apiTypesSource()).split('\n');
    const committed = fs.readFileSync(API_TYPES_FILE, 'utf8').split('\n');
    const firstDifference = fresh.findIndex((line, i) => line !== committed[i]);
    const stale =
      firstDifference >= 0 || fresh.length !== committed.length
        ? `api-paths.ts is stale from line ${firstDifference + 1}: run npm run gen:api-types`
        : undefined;
    expect(stale).toBeUndefined();
  });

  it('cover every declared route under /api/v1', () => {
    const document = declaredOpenApi();
    const committed = fs.readFileSync(API_TYPES_FILE, 'utf8');
    const routes = Object.keys(document.paths).filter((p) => p.startsWith('/api/v1/'));
    expect(routes.length).toBeGreaterThan(120);
    expect(routes.filter((p) => !committed.includes(`"${p}": {`))).toEqual([]);
  });
});
