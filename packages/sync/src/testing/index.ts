/**
 * Test support of the sync package, `@pharmacy/sync/testing`: what the server's tests share with this
 * package's (the sync package is the lower floor both import). Nothing in production imports it (the
 * package's main entry does not export it); the real-process helpers (procs.ts, fault-proxy.ts) stay local.
 */
export { eventually } from './eventually';
