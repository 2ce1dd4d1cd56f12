import path from 'node:path';
import { inject } from 'vitest';
import { CACHED_BUNDLE, ENTRIES } from './server-bundle';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

export type BundleName = keyof typeof ENTRIES;
export type ServerBundles = Record<BundleName, string>;

/**
 * The node arguments that start an entry: its bundle, built once per run by bundles-global-setup.ts (the
 * server's run with V8's code cache, cached-bundle.cjs), else (a config without that set-up) its TypeScript
 * through tsx.
 */
export function entryArgs(name: BundleName): string[] {
  const built = inject('serverBundles')?.[name];
  if (!built) return ['--import', 'tsx', path.join(ROOT, ENTRIES[name])];
  return name === 'server' ? [CACHED_BUNDLE, built] : [built];
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverBundles: ServerBundles;
  }
}
