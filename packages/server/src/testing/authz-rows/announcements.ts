import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each announcements route (the authorisation table in src/authz.test.ts). */
export const announcementsAuthz: AuthzRow[] = [
  { method: 'GET', path: '/changelog', expect: anyRole(200) },
  { method: 'POST', path: '/changelog', body: {}, expect: only([], 400) },
  { method: 'GET', path: '/notices', expect: anyRole(200) },
  {
    method: 'POST',
    path: '/notices/acknowledge',
    body: { kind: 'recall', id: 'no-such-batch' },
    expect: anyRole(404),
  },
];
