/** Where to go after signing in: a path inside the till, never another site or the login page. */
export function safeNext(next: string | null): string {
  if (
    !next?.startsWith('/') ||
    next.startsWith('//') ||
    next.startsWith('/\\') ||
    next.startsWith('/login')
  ) {
    return '/sell';
  }
  return next;
}
