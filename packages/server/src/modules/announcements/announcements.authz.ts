import { type AuthzRow, anyRole, only } from '../../testing/authz';

export const announcementAuthz: AuthzRow[] = [
  { method: 'GET', path: '/changelog', expect: anyRole(200) },
  { method: 'POST', path: '/changelog', body: {}, expect: only([], 400) },
];
