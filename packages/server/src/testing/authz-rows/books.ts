import { OVERSEERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, only } from '../authz';

/** Who may call each books route (the authorisation table in src/authz.test.ts). */
export const booksAuthz: AuthzRow[] = [
  { method: 'GET', path: '/books', expect: only(OVERSEERS, 200) },
  { method: 'GET', path: '/books/warnings', expect: only(OVERSEERS, 200) },
  { method: 'POST', path: '/sync/books', body: {}, expect: only([], 400) },
];
