import path from 'node:path';
import { inject } from 'vitest';
import { ENTRIES } from './server-bundle';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

export type BundleName = keyof typeof ENTRIES;
export type ServerBundles = Record<BundleName, string>;

/**
 * The node arguments that start an entry: its bundle, built once per run by bundles-global-setup.ts, else (a
 * config without that set-up) its TypeScript through tsx.
 */
export function entryArgs(name: BundleName): string[] {
  const built = inject('serverBundles')?.[name];
  return built ? [built] : ['--import', 'tsx', path.join(ROOT, ENTRIES[name])];
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverBundles: ServerBundles;
  }
}
