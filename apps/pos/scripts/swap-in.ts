import fs from 'node:fs';
import path from 'node:path';

/**
 * The built UI is served from `apps/pos/dist`, a symbolic link to one finished build under `apps/pos/.builds/`.
 * A build writes a folder of its own and then swaps the link in with one rename, which replaces the old link
 * atomically: a server reading `dist` (another `npm start`, a tester's till) sees the old build or the new one,
 * never a folder being emptied or half written, and two builds at once each finish before either is served.
 */

/** How many finished builds stay beside the served one: a page loaded from one still finds its assets. */
const KEEP_PREVIOUS = 3;

export interface BuildFolders {
  /** The served link, e.g. apps/pos/dist. */
  served: string;
  /** Where builds are written, e.g. apps/pos/.builds. */
  builds: string;
}

let buildsStarted = 0;

/** A new, empty folder for one build; its name sorts after every earlier build. */
export function newBuildFolder(folders: BuildFolders): string {
  fs.mkdirSync(folders.builds, { recursive: true });
  const name = `${Date.now().toString().padStart(15, '0')}-${process.pid}-${buildsStarted++}`;
  const dir = path.join(folders.builds, name);
  fs.mkdirSync(dir);
  return dir;
}

/** Serves `built` from now on: one rename of a fresh link over the served one, then prunes old builds. */
export function swapIn(folders: BuildFolders, built: string): void {
  const temporaryLink = `${folders.served}.next-${process.pid}`;
  fs.rmSync(temporaryLink, { force: true });
  // Relative, so the checkout can move; a junction on Windows needs no privilege (and an absolute target).
  const target =
    process.platform === 'win32' ? path.resolve(built) : path.relative(path.dirname(folders.served), built);
  fs.symlinkSync(target, temporaryLink, 'junction');
  replaceServed(folders.served, temporaryLink);
  pruneBuilds(folders, built);
}

function replaceServed(served: string, link: string): void {
  const current = fs.lstatSync(served, { throwIfNoEntry: false });
  // Before the first swap, `dist` may be a plain folder from an older build: that one time it is removed first.
  // Windows cannot rename over an existing link either, so there the swap is a short remove-then-rename.
  if (current && (!current.isSymbolicLink() || process.platform === 'win32'))
    fs.rmSync(served, { recursive: true, force: true });
  fs.renameSync(link, served);
}

/** A build left unfinished this long ago was abandoned (its process died), not still being written. */
const ABANDONED_MS = 60 * 60 * 1000;

/**
 * Removes finished builds older than the served one but the newest KEEP_PREVIOUS, and abandoned ones; a build
 * another process is still writing (no index.html yet) is left alone.
 */
function pruneBuilds(folders: BuildFolders, served: string): void {
  const servedName = path.basename(served);
  const older = fs
    .readdirSync(folders.builds)
    .filter((n) => n < servedName)
    .sort();
  const finished = older.filter((n) => fs.existsSync(path.join(folders.builds, n, 'index.html')));
  const abandoned = older.filter(
    (n) =>
      !finished.includes(n) && Date.now() - fs.statSync(path.join(folders.builds, n)).mtimeMs > ABANDONED_MS,
  );
  for (const name of [...finished.slice(0, Math.max(0, finished.length - KEEP_PREVIOUS)), ...abandoned])
    fs.rmSync(path.join(folders.builds, name), { recursive: true, force: true });
}
