// Runs a CommonJS bundle (server-bundle.ts) as `node <bundle>` would, with V8's code cache: the tests start a
// server process over a hundred times a run, and compiling the 8 MB bundle took about 0.3 s of a start's
// 1.2 s of CPU (75 ms from the cache). The cache (<bundle>.v8cache) is written by the first process to run a
// bundle, once warm (writeCacheOnceWarm). A script's import() would need a loader (vm's importModuleDynamically), which on
// Node 20 a function compiled from a cached script loses ("A dynamic import callback was not specified"): the
// bundles have none (server-bundle.ts turns them into require()). V8 refuses a cache made from other source; the next process writes a fresh one.
// Node 22's NODE_COMPILE_CACHE does this built in; Node 20 has no such switch.
//   node cached-bundle.cjs <bundle.cjs> [args...]
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** How long a process runs before it writes the cache: its start and first requests. */
const WARM_MS = 5_000;

/** The cache a process before this one left, if any. */
function readCache(cacheFile) {
  try {
    return fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

/** Writes the script's cache as compiled, before it runs. */
function writeCache(script, cacheFile) {
  const partial = `${cacheFile}.${process.pid}`;
  try {
    fs.writeFileSync(partial, script.createCachedData());
    fs.renameSync(partial, cacheFile);
  } catch {
    fs.rmSync(partial, { force: true });
  }
}

/**
 * The cache is made once the process has run a while, or as it exits if sooner: V8 then puts in it every
 * function compiled so far (Node's documented use of createCachedData), so the next processes skip compiling
 * the start-up path and the first requests' handlers too, not only the top level. A till's start: about 0.64 s
 * of CPU against 0.75 s with a cache made before running (six starts each).
 */
function writeCacheOnceWarm(script, cacheFile) {
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    writeCache(script, cacheFile);
  };
  setTimeout(write, WARM_MS).unref();
  process.once('exit', write);
}

function run(file) {
  const cacheFile = `${file}.v8cache`;
  const cachedData = readCache(cacheFile);
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
  });
  if (cachedData === undefined || script.cachedDataRejected) writeCacheOnceWarm(script, cacheFile);
  const bundle = new Module(file, null);
  bundle.filename = file;
  bundle.paths = Module._nodeModulePaths(path.dirname(file));
  process.mainModule = bundle;
  script.runInThisContext()(bundle.exports, Module.createRequire(file), bundle, file, path.dirname(file));
  bundle.loaded = true;
}

const file = path.resolve(process.argv[2]);
// The bundle sees itself as the script node was given.
process.argv.splice(1, 2, file);
run(file);
