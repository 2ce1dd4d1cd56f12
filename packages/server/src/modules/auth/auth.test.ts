import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, PHARMACIST, startTestServer, type TestServer, USER_PASSWORD } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('POST /auth/login', () => {
  it('signs in the seeded admin and pharmacist (seeded with passwords of their own: not flagged)', async () => {
    for (const { email, password } of [ADMIN, PHARMACIST]) {
      const res = await t.post('/api/v1/auth/login', { email, password });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        token_type: 'bearer',
        branch_name: 'Main Branch',
        must_change_password: false,
      });
      expect(typeof res.body.access_token).toBe('string');
      expect(res.body.user_id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('accepts the email in any case and with spaces', async () => {
    const res = await t.post('/api/v1/auth/login', {
      email: '  ADMIN@Pharmacy.Local ',
      password: ADMIN.password,
    });
    expect(res.status).toBe(200);
  });

  it('answers 400 with a detail when email or password is missing', async () => {
    for (const body of [{}, { email: ADMIN.email }, { password: 'x' }, { email: 5, password: [] }, []]) {
      const res = await t.post('/api/v1/auth/login', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION' });
      expect(String(res.body.detail).length).toBeGreaterThan(5);
    }
  });

  it('answers 401 for a wrong password or unknown email, with the same detail', async () => {
    const wrong = await t.post('/api/v1/auth/login', { email: ADMIN.email, password: 'nope-nope' });
    const unknown = await t.post('/api/v1/auth/login', {
      email: 'ghost@pharmacy.local',
      password: 'nope-nope',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  it('answers 403 for a deactivated account only once the password is right', async () => {
    const cashier = await t.userWithRole('cashier');
    const admin = await t.adminToken();
    expect((await t.put(`/api/v1/users/${cashier.id}`, { is_active: false }, admin)).status).toBe(200);
    expect((await t.post('/api/v1/auth/login', { email: cashier.email, password: 'wrong-one' })).status).toBe(
      401,
    );
    const res = await t.post('/api/v1/auth/login', { email: cashier.email, password: USER_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ACCOUNT_INACTIVE');
    // the old token is revoked by the deactivation
    expect((await t.get('/api/v1/auth/me', cashier.token)).status).toBe(401);
    const audit = await t.get<{ items: Array<{ entity_id: string; after: Record<string, unknown> }> }>(
      '/api/v1/audit?action=auth.login_refused',
      admin,
    );
    expect(audit.body.items.filter((e) => e.entity_id === cashier.id)).toMatchObject([
      { after: { reason: 'ACCOUNT_INACTIVE' } },
    ]);
  });

  it('throttles repeated failures per account with 429 and Retry-After', async () => {
    const throttled = await startTestServer();
    try {
      const email = PHARMACIST.email;
      for (let i = 0; i < 5; i++) {
        expect((await throttled.post('/api/v1/auth/login', { email, password: `bad-${i}` })).status).toBe(
          401,
        );
      }
      const res = await throttled.post('/api/v1/auth/login', { email, password: PHARMACIST.password });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.body.code).toBe('LOGIN_THROTTLED');
      // another account from the same address is not locked yet
      expect((await throttled.post('/api/v1/auth/login', ADMIN)).status).toBe(200);
      // The lockout is audited once, by the failure that started it, not per refused attempt.
      const locks = await throttled.get<{ items: Array<{ after: Record<string, unknown> }> }>(
        '/api/v1/audit?action=auth.login_locked',
        await throttled.adminToken(),
      );
      expect(locks.body.items).toMatchObject([{ after: { email, locked: ['account'] } }]);
    } finally {
      await throttled.close();
    }
  });

  it('on central, throttles per client address across accounts (password spraying)', async () => {
    const throttled = await startTestServer({ mode: 'central' });
    try {
      const admin = await throttled.adminToken();
      await throttled.put(
        '/api/v1/settings',
        { login_throttle: { max_failures_per_account: 50, max_failures_per_address: 3, window_minutes: 5 } },
        admin,
      );
      for (let i = 0; i < 3; i++)
        await throttled.post('/api/v1/auth/login', { email: `u${i}@x.local`, password: 'bad-pass' });
      const res = await throttled.post('/api/v1/auth/login', ADMIN);
      expect(res.status).toBe(429);
      const locks = await throttled.query<{ after_json: string }>(
        "SELECT after_json FROM audit_log WHERE action = 'auth.login_locked'",
      );
      expect(locks.map((l) => JSON.parse(l.after_json))).toMatchObject([
        { email: 'u2@x.local', locked: ['address'] },
      ]);
    } finally {
      await throttled.close();
    }
  });

  it('M2: a branch manager unlocks only the cashiers and pharmacists of their branch, and no unlock lifts the address count', async () => {
    const central = await startTestServer({ mode: 'central' });
    try {
      const admin = await central.adminToken();
      await central.put(
        '/api/v1/settings',
        { login_throttle: { max_failures_per_account: 2, max_failures_per_address: 4, window_minutes: 5 } },
        admin,
      );
      const manager = await central.userWithRole('branch_manager');
      const cashier = await central.userWithRole('cashier');
      const auditor = await central.userWithRole('auditor');
      const other = await central.userWithRole('branch_manager', await central.createBranch('M2B'));
      const me = await central.login(ADMIN.email, ADMIN.password);
      const adminRow = await central.get<{ id: string }>('/api/v1/auth/me', me);
      // The admin, an auditor (organisation-wide, carrying the manager's branch id) and another manager: 403.
      for (const target of [adminRow.body.id, auditor.id, other.id]) {
        const res = await central.post<{ code: string }>(`/api/v1/users/${target}/unlock`, {}, manager.token);
        expect(res.status, target).toBe(403);
        expect(res.body.code).toBe('ROLE_NOT_GRANTABLE');
      }
      expect((await central.post(`/api/v1/users/${cashier.id}/unlock`, {}, manager.token)).status).toBe(200);

      // Four failures from one address lock the address; unlocking the accounts (by an admin) does not lift it.
      for (const email of [ADMIN.email, ADMIN.email, cashier.email, cashier.email])
        await central.post('/api/v1/auth/login', { email, password: 'Wrong#pass-1' });
      expect((await central.post('/api/v1/auth/login', ADMIN)).status).toBe(429);
      for (const id of [adminRow.body.id, cashier.id])
        expect((await central.post(`/api/v1/users/${id}/unlock`, {}, admin)).status).toBe(200);
      expect((await central.post('/api/v1/auth/login', ADMIN)).status).toBe(429);
      expect(
        (await central.post('/api/v1/auth/login', { email: cashier.email, password: USER_PASSWORD })).status,
      ).toBe(429);
    } finally {
      await central.close();
    }
  });

  it('audits successful and failed sign-ins', async () => {
    const admin = await t.adminToken();
    const res = await t.get<{ items: Array<{ action: string }> }>(
      '/api/v1/audit?action=auth.login_failed',
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
  });
});

describe('bearer tokens', () => {
  it('answers 401 without a token, with a malformed header, a forged or a tampered token', async () => {
    expect((await t.get('/api/v1/auth/me')).status).toBe(401);
    expect(
      (await t.request('GET', '/api/v1/auth/me', { headers: { authorization: 'Basic abc' } })).status,
    ).toBe(401);
    const forged = await new SignJWT({ role: 'admin', tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-123456'));
    expect((await t.get('/api/v1/auth/me', forged)).status).toBe(401);
    const admin = await t.adminToken();
    const tampered = `${admin.slice(0, -2)}${admin.endsWith('A') ? 'B' : 'A'}A`;
    expect((await t.get('/api/v1/auth/me', tampered)).status).toBe(401);
  });

  it('refresh issues a working token', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    const res = await t.post<{ access_token: string }>('/api/v1/auth/refresh', {}, token);
    expect(res.status).toBe(200);
    expect((await t.get('/api/v1/auth/me', res.body.access_token)).status).toBe(200);
  });
});

describe('GET /auth/me', () => {
  it('returns the caller without a password hash', async () => {
    const res = await t.get('/api/v1/auth/me', await t.adminToken());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email: ADMIN.email,
      role: 'admin',
      branch_name: 'Main Branch',
      must_change_password: false,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|password_hash/);
  });
});

describe('POST /auth/change-password', () => {
  it('changes the password, clears the default flag and revokes older tokens', async () => {
    const user = await t.userWithRole('auditor');
    const old = user.token;
    const res = await t.post<{ access_token: string }>(
      '/api/v1/auth/change-password',
      { current_password: USER_PASSWORD, new_password: 'Brand-new-1' },
      old,
    );
    expect(res.status).toBe(200);
    expect((await t.get('/api/v1/auth/me', old)).status).toBe(401);
    const me = await t.get('/api/v1/auth/me', res.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body.must_change_password).toBe(false);
    expect((await t.post('/api/v1/auth/login', { email: user.email, password: 'Brand-new-1' })).status).toBe(
      200,
    );
  });

  it('refuses a wrong current password, a short or an unchanged new one, writing nothing', async () => {
    const token = await t.login(PHARMACIST.email, PHARMACIST.password);
    const before = await t.count('audit_log');
    const cases = [
      [{ current_password: 'wrong-one', new_password: 'Another-1' }, 'WRONG_PASSWORD'],
      [{ current_password: PHARMACIST.password, new_password: 'short' }, 'VALIDATION'],
      [{ current_password: PHARMACIST.password, new_password: PHARMACIST.password }, 'VALIDATION'],
      [{ new_password: 'Another-1' }, 'VALIDATION'],
    ] as const;
    for (const [body, code] of cases) {
      const res = await t.post('/api/v1/auth/change-password', body, token);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
    }
    expect(await t.count('audit_log')).toBe(before);
    expect((await t.get('/api/v1/auth/me', token)).status).toBe(200);
  });
});

describe('M3: a password someone else set must be replaced before anything else', () => {
  it('the seeded admin with the documented default password may only read itself and change it', async () => {
    const fresh = await startTestServer({ seed: {} });
    try {
      const login = await fresh.post<{ access_token: string; must_change_password: boolean }>(
        '/api/v1/auth/login',
        { email: 'admin@pharmacy.local', password: 'Admin#12345' },
      );
      expect(login.body.must_change_password).toBe(true);
      const token = login.body.access_token;
      const branches = await fresh.count('branches');
      for (const [method, url, body] of [
        ['GET', '/api/v1/users', undefined],
        ['POST', '/api/v1/branches', { name: 'Evil', code: 'EVL' }],
        ['GET', '/api/v1/settings', undefined],
        ['POST', '/api/v1/auth/refresh', {}],
      ] as const) {
        const res = await fresh.request(method, url, { token, body });
        expect(res.status, url).toBe(403);
        expect(res.body.code, url).toBe('PASSWORD_CHANGE_REQUIRED');
      }
      expect(await fresh.count('branches')).toBe(branches);
      expect((await fresh.get('/api/v1/auth/me', token)).body.must_change_password).toBe(true);
      const changed = await fresh.post<{ access_token: string }>(
        '/api/v1/auth/change-password',
        { current_password: 'Admin#12345', new_password: 'Chosen-by-me-42' },
        token,
      );
      expect(changed.status).toBe(200);
      expect((await fresh.get('/api/v1/users', changed.body.access_token)).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('a user an admin creates, and a user an admin resets, must change the password first', async () => {
    const admin = await t.adminToken();
    const email = 'm3.new@test.local';
    const created = await t.post<{ id: string; must_change_password: boolean }>(
      '/api/v1/users',
      {
        email,
        password: 'Set-by-admin#9',
        full_name: 'New Cashier',
        role: 'cashier',
        branch_id: await t.mainBranchId(),
      },
      admin,
    );
    expect(created.body.must_change_password).toBe(true);
    const token = await t.login(email, 'Set-by-admin#9');
    const sale = await t.get('/api/v1/sessions/current', token);
    expect(sale.status).toBe(403);
    expect(sale.body.code).toBe('PASSWORD_CHANGE_REQUIRED');
    const mine = await t.firstSignIn(email, 'Set-by-admin#9', 'Mine-and-only-mine#1');
    expect((await t.get('/api/v1/medicines', mine)).status).toBe(200);
    const reset = await t.post(
      `/api/v1/users/${created.body.id}/reset-password`,
      { new_password: 'Reset-by-admin#2', confirm_password: 'Reset-by-admin#2' },
      admin,
    );
    expect(reset.status).toBe(200);
    const afterReset = await t.login(email, 'Reset-by-admin#2');
    expect((await t.get('/api/v1/medicines', afterReset)).body.code).toBe('PASSWORD_CHANGE_REQUIRED');
  });
});

describe('M1 and L2: the sign-in throttle', () => {
  it('M1: 41 parallel sign-ins check at most the limit of passwords; the right one among them is throttled too', async () => {
    const till = await startTestServer();
    try {
      const victim = await till.userWithRole('pharmacist');
      const attempts = Array.from({ length: 41 }, (_, i) => (i === 25 ? USER_PASSWORD : `guess-${i}`));
      const statuses = await Promise.all(
        attempts.map(
          async (password) =>
            (await till.post('/api/v1/auth/login', { email: victim.email, password })).status,
        ),
      );
      const checked = statuses.filter((s) => s === 401 || s === 200).length;
      expect(checked).toBeLessThanOrEqual(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(41 - checked);
      expect(statuses[25]).toBe(429);
      const [failed] = await till.query<{ n: number }>(
        "SELECT count(*) AS n FROM audit_log WHERE action = 'auth.login_failed'",
      );
      expect(failed!.n).toBeLessThanOrEqual(5);
    } finally {
      await till.close();
    }
  });

  it("L2: at a till, one account's wrong guesses never lock out a colleague, and a manager unlocks the account", async () => {
    // A till by nature: central also throttles per address, which this test shows a till does not.
    const till = await startTestServer({ mode: 'till' });
    try {
      const locked = await till.userWithRole('cashier');
      const colleague = await till.userWithRole('pharmacist');
      const manager = await till.userWithRole('branch_manager');
      // 25 wrong guesses from this till's one address: the account's own, and unknown or mistyped emails.
      for (let i = 0; i < 5; i++)
        await till.post('/api/v1/auth/login', { email: locked.email, password: `wrong-${i}` });
      for (let i = 0; i < 20; i++)
        await till.post('/api/v1/auth/login', { email: `typo-${i}@pharmacy.local`, password: 'wrong' });
      const refused = await till.post('/api/v1/auth/login', { email: locked.email, password: USER_PASSWORD });
      expect(refused.status).toBe(429);
      expect(
        (await till.post('/api/v1/auth/login', { email: colleague.email, password: USER_PASSWORD })).status,
      ).toBe(200);
      expect((await till.post('/api/v1/auth/login', ADMIN)).status).toBe(200);
      const other = await till.createBranch('L2OTHER');
      const otherManager = await till.userWithRole('branch_manager', other);
      expect((await till.post(`/api/v1/users/${locked.id}/unlock`, {}, otherManager.token)).status).toBe(403);
      expect((await till.post(`/api/v1/users/${locked.id}/unlock`, {}, colleague.token)).status).toBe(403);
      const unlocked = await till.post(`/api/v1/users/${locked.id}/unlock`, {}, manager.token);
      expect(unlocked.status).toBe(200);
      expect(
        (await till.post('/api/v1/auth/login', { email: locked.email, password: USER_PASSWORD })).status,
      ).toBe(200);
      const [audit] = await till.query<{ n: number }>(
        "SELECT count(*) AS n FROM audit_log WHERE action = 'user.unlock' AND entity_id = ?",
        locked.id,
      );
      expect(audit!.n).toBe(1);
    } finally {
      await till.close();
    }
  });
});

describe('L1: the password policy', () => {
  const weak = (email: string) => [
    ['password1', 'common'],
    ['PassWord1', 'common'],
    ['iloveyou', 'common'],
    ['aaaaaaaaaa', 'one character repeated'],
    ['          ', 'only spaces'],
    [email, 'your email'],
    [email.split('@')[0]!.toUpperCase(), 'your email'],
  ];

  it('refuses common, repeated, blank and email passwords on change, naming new_password, writing nothing', async () => {
    const user = await t.userWithRole('inventory_manager');
    const before = await t.count('audit_log');
    for (const [password, why] of weak(user.email)) {
      const res = await t.post(
        '/api/v1/auth/change-password',
        { current_password: USER_PASSWORD, new_password: password },
        user.token,
      );
      expect(res.status, password).toBe(400);
      expect(res.body.code).toBe('WEAK_PASSWORD');
      expect(res.body.errors).toEqual([{ path: 'new_password', message: expect.stringContaining(why!) }]);
    }
    expect(await t.count('audit_log')).toBe(before);
    expect((await t.get('/api/v1/auth/me', user.token)).status).toBe(200);
  });

  it('H1: refuses a common password or word with up to 3 digits or symbols added, leetspeak, and the product and branch names', async () => {
    const user = await t.userWithRole('pharmacist');
    const branch = await t.get<{ name: string }>(`/api/v1/branches/${user.branchId}`, await t.adminToken());
    const [word] = branch.body.name.split(' ');
    for (const password of [
      'Passw0rd!',
      'password1!',
      'Pharmacy1',
      '!!Till202',
      'Dragon#12',
      `!${word}12!`,
      '$unshine7',
    ]) {
      const res = await t.post(
        '/api/v1/auth/change-password',
        { current_password: USER_PASSWORD, new_password: password },
        user.token,
      );
      expect(res.status, password).toBe(400);
      expect(res.body.code, password).toBe('WEAK_PASSWORD');
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'new_password' })]);
    }
    expect((await t.get('/api/v1/auth/me', user.token)).status).toBe(200);
  });

  it('refuses them when an admin creates a user or resets a password, naming the field', async () => {
    const admin = await t.adminToken();
    const email = 'l1.user@test.local';
    const users = await t.count('users');
    for (const [password] of weak(email)) {
      const res = await t.post(
        '/api/v1/users',
        { email, password, full_name: 'Weak', role: 'cashier', branch_id: await t.mainBranchId() },
        admin,
      );
      expect(res.status, password).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'password' })]);
    }
    expect(await t.count('users')).toBe(users);
    const someone = await t.userWithRole('auditor');
    const reset = await t.post(
      `/api/v1/users/${someone.id}/reset-password`,
      { new_password: 'qwerty123', confirm_password: 'qwerty123' },
      admin,
    );
    expect(reset.status).toBe(400);
    expect(reset.body.errors).toEqual([expect.objectContaining({ path: 'new_password' })]);
  });
});

describe('L3: sessions end', () => {
  it('a refreshed token revokes the one it replaced (after 30 s for requests already under way)', async () => {
    const first = await t.login(ADMIN.email, ADMIN.password);
    const second = await t.post<{ access_token: string }>('/api/v1/auth/refresh', {}, first);
    expect(second.status).toBe(200);
    // The replaced token can never refresh again, and requests sent with it just before still pass...
    const again = await t.post('/api/v1/auth/refresh', {}, first);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('TOKEN_REVOKED');
    expect((await t.get('/api/v1/auth/me', first)).status).toBe(200);
    // ...until the grace is over.
    const sid = JSON.parse(Buffer.from(first.split('.')[1]!, 'base64url').toString()).sid as string;
    expect(
      await t.exec(
        'UPDATE auth_sessions SET refreshed_at = ? WHERE id = ?',
        new Date(Date.now() - 31_000).toISOString(),
        sid,
      ),
    ).toBe(1);
    const old = await t.get('/api/v1/auth/me', first);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('TOKEN_REVOKED');
    expect((await t.get('/api/v1/auth/me', second.body.access_token)).status).toBe(200);
  });

  it('no refresh outlives the session: after session_max_hours only a fresh sign-in works', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    // The session began 13 hours ago (the default lifetime is 12 hours).
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
    const past = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    expect(
      await t.exec(
        'UPDATE auth_sessions SET started_at = ?, expires_at = ? WHERE id = ?',
        past(13),
        past(1),
        sid,
      ),
    ).toBe(1);
    const refreshed = await t.post('/api/v1/auth/refresh', {}, token);
    expect(refreshed.status).toBe(401);
    expect(refreshed.body.code).toBe('SESSION_EXPIRED');
    expect((await t.get('/api/v1/auth/me', token)).body.code).toBe('SESSION_EXPIRED');
    expect((await t.post('/api/v1/auth/login', ADMIN)).status).toBe(200);
  });

  it('a token never expires after its session, and the lifetime is a setting', async () => {
    const admin = await t.adminToken();
    expect((await t.put('/api/v1/settings', { session_max_hours: 0 }, admin)).status).toBe(400);
    expect((await t.put('/api/v1/settings', { session_max_hours: 2 }, admin)).status).toBe(200);
    const login = await t.post<{ access_token: string; expires_in: number }>('/api/v1/auth/login', ADMIN);
    const claims = JSON.parse(Buffer.from(login.body.access_token.split('.')[1]!, 'base64url').toString());
    const [session] = await t.query<{ started_at: string; expires_at: string }>(
      'SELECT started_at, expires_at FROM auth_sessions WHERE id = ?',
      claims.sid,
    );
    if (!session) throw new Error('no session row for the token');
    expect(Date.parse(session.expires_at) - Date.parse(session.started_at)).toBe(2 * 3_600_000);
    expect(claims.exp * 1000).toBeLessThanOrEqual(Date.parse(session.expires_at));
    expect((await t.put('/api/v1/settings', { session_max_hours: 12 }, admin)).status).toBe(200);
  });

  it('sign-out ends the session: its tokens stop working, other sessions go on', async () => {
    const mine = await t.login(ADMIN.email, ADMIN.password);
    const otherTill = await t.login(ADMIN.email, ADMIN.password);
    expect((await t.post('/api/v1/auth/logout', {}, mine)).status).toBe(204);
    expect((await t.get('/api/v1/auth/me', mine)).body.code).toBe('TOKEN_REVOKED');
    expect((await t.get('/api/v1/auth/me', otherTill)).status).toBe(200);
  });
});
