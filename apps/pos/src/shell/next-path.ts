import type { Role } from '@pharmacy/contracts';
import { homePath, mayOpen } from './nav';

/**
 * Where to go after signing in: a path inside the till this role may open, never another site or the login
 * page; otherwise the role's home.
 */
export function safeNext(next: string | null, role: Role): string {
  if (
    !next?.startsWith('/') ||
    next.startsWith('//') ||
    next.startsWith('/\\') ||
    next.startsWith('/login') ||
    !mayOpen(role, next)
  ) {
    return homePath(role);
  }
  return next;
}
