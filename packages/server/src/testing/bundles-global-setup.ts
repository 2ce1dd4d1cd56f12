import type { TestProject } from 'vitest/node';
import type { BundleName, ServerBundles } from './bundles';
import { bundleEntry, ENTRIES } from './server-bundle';

const shared = globalThis as { pharmacyTestBundles?: Promise<ServerBundles> };

/**
 * Vitest global setup: the entries the tests start as processes (bundles.ts) bundled once per run, reused
 * while their sources are unchanged (server-bundle.ts), handed to the test workers. Vitest calls it for the
 * root config and again for each project, all in its main process: they share one build.
 */
export async function setup(project: TestProject): Promise<void> {
  shared.pharmacyTestBundles ??= (async () => {
    const names = Object.keys(ENTRIES) as BundleName[];
    const files = await Promise.all(names.map((name) => bundleEntry(name, ENTRIES[name])));
    return Object.fromEntries(names.map((name, i) => [name, files[i]!])) as ServerBundles;
  })();
  project.provide('serverBundles', await shared.pharmacyTestBundles);
}
