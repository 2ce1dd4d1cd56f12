import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('settings', () => {
  it('starts with the default tax policy: standard 18 %, VAT-inclusive prices', async () => {
    const res = await t.get('/api/v1/settings', (await t.userWithRole('cashier')).token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      base_currency_code: 'USD',
      tax_policy: { vat_rates: { standard: 18, zero: 0, exempt: 0 }, prices_include_vat: true },
      negative_stock_policy: 'forbid',
    });
  });

  it('changes settings (admin only), audits before and after, and serves the new values', async () => {
    const body = {
      organization_name: 'Afya Pharmacies',
      tin: '123-456-789',
      tax_policy: { vat_rates: { standard: 15, zero: 0, exempt: 0, reduced: 5 }, prices_include_vat: false },
      receipt_footer: 'Asante! Karibu tena',
    };
    const res = await t.put('/api/v1/settings', body, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ...body,
      tax_policy: { ...body.tax_policy, rounding: 'half_up_per_line' },
    });
    expect(typeof res.body.updated_at).toBe('string');
    expect((await t.get('/api/v1/settings', admin)).body).toMatchObject(body);
    const audit = await t.get<{
      items: Array<{ before: { organization_name: string }; after: { organization_name: string } }>;
    }>('/api/v1/audit?action=settings.update', admin);
    expect(audit.body.items[0]?.before.organization_name).toBe('Pharmacy');
    expect(audit.body.items[0]?.after.organization_name).toBe('Afya Pharmacies');
    const manager = await t.userWithRole('branch_manager');
    expect((await t.put('/api/v1/settings', { tin: 'x' }, manager.token)).status).toBe(403);
  });

  it('refuses invalid settings and writes nothing', async () => {
    const before = await t.count('audit_log');
    for (const body of [
      {},
      { base_currency_code: 'XYZ' },
      { timezone: 'Nowhere/Land' },
      { tax_policy: { vat_rates: { standard: 180 } } },
      { tax_policy: { vat_rates: { standard: 18 } } },
      { fx_tolerance_pct: -1 },
      { negative_stock_policy: 'sometimes' },
      { unknown_field: true },
      { login_throttle: { max_failures_per_account: 0, max_failures_per_address: 1, window_minutes: 1 } },
    ]) {
      const res = await t.put('/api/v1/settings', body, admin);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toBeTruthy();
    }
    expect(await t.count('audit_log')).toBe(before);
  });
});
