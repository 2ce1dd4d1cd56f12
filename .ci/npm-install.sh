#!/usr/bin/env bash
# CI's `npm install`: the same packages at the lockfile's versions, with the one slow step started first.
#
# better-sqlite3 compiles SQLite from source here (its prebuilt binaries live on GitHub, which this machine
# cannot reach): 84 s on one core at -O2, most of the install, and npm only starts it once every package is
# unpacked (45-100 s here, depending on the hour). So its registry tarball, checked against the lockfile's
# integrity, is compiled from the start, beside the unpacking of the rest (--ignore-scripts), the other
# packages' install scripts and a first type-check (incremental: npm test's own then re-reads only what changed, 3 s instead of 19). Measured on
# fresh clones in the same hour: 121-124 s against 167-175 s for npm's own order. Should the early build fail,
# npm builds better-sqlite3 itself, as a plain `npm install` does.
#
# The compile stays the long pole, so it goes first: its two translation units (SQLite, the addon) side by side
# (JOBS=2: node-gyp runs make -j2; by default one at a time), and the work beside it at a lower priority
# (nice), which still has the other core. Adjacent runs: 103 s against 127 s, and 119 s against 136 s.
#
# CFLAGS=-O2: SQLite's own default level; better-sqlite3's -O3 takes 116 s and runs no faster (a 300,000-row
# insert-and-query workload: 9.8-10.6 s with either; -O1 was 20 % slower). Only this CI build is affected: a
# till's `npm install` keeps better-sqlite3's own flags.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Electron binary cannot be downloaded here; its npm package is still needed for types and packaging.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
# better-sqlite3's compile flags, early or not (see above); the other native packages keep their own.
sqlite_cflags=-O2

early=$(mktemp -d)
trap 'rm -rf "$early"' EXIT

build_sqlite_early() {
  local version integrity tarball
  read -r version integrity < <(node -p '
    const p = require("./package-lock.json").packages["node_modules/better-sqlite3"];
    `${p.version} ${p.integrity}`')
  (cd "$early" && npm pack --silent "better-sqlite3@$version" >/dev/null)
  tarball=$(ls "$early"/better-sqlite3-*.tgz)
  [ "$(node -p 'const c = require("crypto"); "sha512-" + c.createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64")' "$tarball")" = "$integrity" ] || {
    echo "better-sqlite3@$version from the registry does not match package-lock.json's integrity" >&2
    return 1
  }
  tar xzf "$tarball" -C "$early"
  # Its install script: prebuild-install (not installed here, so it fails fast), then npm's own node-gyp.
  (cd "$early/package" && JOBS=2 CFLAGS=$sqlite_cflags npm run install >"$early/build.log" 2>&1)
}
build_sqlite_early &
sqlite=$!

# npm install, as a newcomer does (npm ci rejects this lockfile for lacking other platforms' optional biome
# binaries, a known npm quirk); versions stay pinned by package-lock.json.
nice -n 10 npm install --no-audit --no-fund --ignore-scripts
# Every other package's install script, as npm install would have run them (`npm rebuild` alone would
# build better-sqlite3 too).
others=$(node -e '
  const fs = require("fs");
  const { packages } = require("./package-lock.json");
  const withScripts = Object.entries(packages)
    .filter(([where, p]) => p.hasInstallScript && where.startsWith("node_modules/") && fs.existsSync(where))
    .map(([where]) => where.slice("node_modules/".length))
    .filter((name) => name !== "better-sqlite3");
  console.log(withScripts.join(" "));
')
[ -z "$others" ] || nice -n 10 npm rebuild $others
echo "[install] packages unpacked and set up: ${SECONDS} s"
nice -n 10 npm run typecheck
echo "[install] first type-check done: ${SECONDS} s"

if wait "$sqlite"; then
  echo "[install] better-sqlite3 built early: ${SECONDS} s"
  mkdir -p node_modules/better-sqlite3/build/Release
  cp "$early/package/build/Release/better_sqlite3.node" node_modules/better-sqlite3/build/Release/
else
  echo "better-sqlite3's early build failed; npm builds it instead" >&2
  [ ! -f "$early/build.log" ] || cat "$early/build.log" >&2
  CFLAGS=$sqlite_cflags npm rebuild better-sqlite3
fi
node -e 'new (require("better-sqlite3"))(":memory:").close()'
echo "[install] done: ${SECONDS} s"
