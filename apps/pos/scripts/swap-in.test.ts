import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTillUi } from './build';
import { type BuildFolders, newBuildFolder, swapIn } from './swap-in';

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function folders(): BuildFolders {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-build-'));
  temporary.push(root);
  return { served: path.join(root, 'dist'), builds: path.join(root, '.builds') };
}

/** What a static server would serve now: nothing yet, or an index.html whose every script and style exists. */
function servedProblem(served: string): string | null {
  if (!fs.existsSync(served)) return null;
  let html: string;
  try {
    html = fs.readFileSync(path.join(served, 'index.html'), 'utf8');
  } catch {
    return 'dist exists without index.html';
  }
  for (const [, asset] of html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g))
    if (!fs.existsSync(path.join(served, asset!))) return `index.html names ${asset}, which is missing`;
  return null;
}

describe('building the till UI while it is served', () => {
  it('two builds at once never leave a half-built UI to a server reading dist', async () => {
    const where = folders();
    const problems = new Set<string>();
    let reads = 0;
    const reader = setInterval(() => {
      reads++;
      const problem = servedProblem(where.served);
      if (problem) problems.add(problem);
    }, 1);
    try {
      await Promise.all([
        buildTillUi({ quiet: true, folders: where }),
        buildTillUi({ quiet: true, folders: where }),
      ]);
    } finally {
      clearInterval(reader);
    }
    expect([...problems]).toEqual([]);
    expect(reads).toBeGreaterThan(10);
    expect(servedProblem(where.served)).toBeNull();
    expect(fs.existsSync(path.join(where.served, 'index.html'))).toBe(true);
  }, 60_000);

  it('replaces a plain dist folder from an older build, and keeps only the newest builds', () => {
    const where = folders();
    fs.mkdirSync(where.served, { recursive: true });
    fs.writeFileSync(path.join(where.served, 'index.html'), 'old');
    const built: string[] = [];
    for (let i = 0; i < 6; i++) {
      const dir = newBuildFolder(where);
      fs.writeFileSync(path.join(dir, 'index.html'), `build ${i}`);
      swapIn(where, dir);
      built.push(path.basename(dir));
    }
    expect(fs.readFileSync(path.join(where.served, 'index.html'), 'utf8')).toBe('build 5');
    expect(fs.lstatSync(where.served).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(where.builds).sort()).toEqual(built.slice(2));
  });

  it('never removes a build another process is still writing', () => {
    const where = folders();
    const unfinished = newBuildFolder(where);
    for (let i = 0; i < 5; i++) {
      const dir = newBuildFolder(where);
      fs.writeFileSync(path.join(dir, 'index.html'), `build ${i}`);
      swapIn(where, dir);
    }
    expect(fs.existsSync(unfinished)).toBe(true);
  });
});
