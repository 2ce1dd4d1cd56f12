import type { TestProject } from 'vitest/node';
import { bundleEntry, REGISTER_ENTRY, SERVER_ENTRY } from './server-bundle';

/** The bundled entries the tests' server processes run (packages/sync/src/testing/procs.ts). */
export interface ServerBundles {
  /** `npm run server`'s entry: central and tills. */
  server: string;
  /** `npm run till:register`'s entry. */
  register: string;
}

const shared = globalThis as { pharmacyTestBundles?: Promise<ServerBundles> };

/**
 * Vitest global setup: the server's and the register command's entries bundled once per run (reused while
 * their sources are unchanged, see server-bundle.ts), handed to the test workers. Vitest calls it for the
 * root config and again for each project, all in its main process: they share one build.
 */
export async function setup(project: TestProject): Promise<void> {
  shared.pharmacyTestBundles ??= Promise.all([
    bundleEntry('server', SERVER_ENTRY),
    bundleEntry('register', REGISTER_ENTRY),
  ]).then(([server, register]) => ({ server, register }));
  project.provide('serverBundles', await shared.pharmacyTestBundles);
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverBundles: ServerBundles;
  }
}
