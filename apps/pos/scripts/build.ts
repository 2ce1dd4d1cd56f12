import path from 'node:path';
import { build } from 'vite';
import { type BuildFolders, newBuildFolder, swapIn } from './swap-in';

/**
 * `npm run build:pos` and `npm start`: builds the till UI into a folder of its own, then swaps it in as
 * apps/pos/dist (swap-in.ts), so a server already serving the UI never serves a half-built one.
 */

const POS = path.resolve(import.meta.dirname, '..');
export const POS_BUILD_FOLDERS: BuildFolders = {
  served: path.join(POS, 'dist'),
  builds: path.join(POS, '.builds'),
};

export async function buildTillUi(
  options: { quiet?: boolean; folders?: BuildFolders } = {},
): Promise<string> {
  const folders = options.folders ?? POS_BUILD_FOLDERS;
  const outDir = newBuildFolder(folders);
  await build({
    root: POS,
    configFile: path.join(POS, 'vite.config.ts'),
    logLevel: options.quiet ? 'warn' : 'info',
    build: { outDir, emptyOutDir: true },
  });
  swapIn(folders, outDir);
  return outDir;
}
