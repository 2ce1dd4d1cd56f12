import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('POST /marketing/contact', () => {
  it('stores a valid enquiry without a token, refuses bad ones, then rate-limits', async () => {
    const ok = await t.post('/api/v1/marketing/contact', {
      name: 'Amina',
      email: 'amina@example.com',
      message: 'Pricing for 12 branches?',
    });
    expect(ok.status).toBe(201);
    expect(ok.body.id).toBeTruthy();
    expect(
      (await t.post('/api/v1/marketing/contact', { name: 'A', email: 'nope', message: 'x' })).status,
    ).toBe(400);
    expect(
      (await t.post('/api/v1/marketing/contact', { name: 'A', email: 'a@b.co', message: '' })).status,
    ).toBe(400);
    expect(await t.count('marketing_contacts')).toBe(1);
    for (let i = 0; i < 4; i++) {
      expect(
        (await t.post('/api/v1/marketing/contact', { name: 'B', email: 'b@example.com', message: `m${i}` }))
          .status,
      ).toBe(201);
    }
    const limited = await t.post('/api/v1/marketing/contact', {
      name: 'B',
      email: 'b@example.com',
      message: 'again',
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
