import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { declaredOpenApi } from './declared';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

interface Operation {
  summary: string;
  responses: Record<string, unknown>;
  security?: unknown;
  requestBody?: unknown;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1, public, and documents every operation with responses and security', async () => {
    const res = await t.get<{ openapi: string; paths: Record<string, Record<string, Operation>> }>(
      '/api/v1/openapi.json',
    );
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const login = res.body.paths['/api/v1/auth/login']?.post;
    // Public: an empty security list says no token is needed (Redocly's security-defined rule).
    expect(login?.security).toEqual([]);
    expect(login?.responses).toHaveProperty('429');
    expect(login?.requestBody).toBeTruthy();
    const reset = res.body.paths['/api/v1/users/{userId}/reset-password']?.post;
    expect(reset?.responses).toHaveProperty('403');
    expect(reset?.security).toEqual([{ bearerAuth: [] }]);
    for (const [path, ops] of Object.entries(res.body.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(op.responses).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  it('serves the declared document, which the test harness holds every answer to', async () => {
    const [till, central] = [t, await startTestServer({ mode: 'central' })];
    try {
      for (const server of [till, central])
        expect((await server.get('/api/v1/openapi.json')).body).toEqual(
          JSON.parse(JSON.stringify(declaredOpenApi())),
        );
    } finally {
      await central.close();
    }
  });

  it('serves a readable reference page', async () => {
    const res = await t.get('/api/v1/docs');
    expect(res.status).toBe(200);
    expect(String(res.body)).toContain('openapi.json');
  });
});
