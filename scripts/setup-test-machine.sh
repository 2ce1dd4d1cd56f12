#!/usr/bin/env bash
# What `npm test` needs beyond node_modules, on a Debian machine: Debian's chromium-headless-shell (the
# end-to-end tests: Chromium without the browser's UI layer, as Playwright's headless runs use),
# socat (the serial scanner and printer tests on a pty), udev (udevadm: device discovery) and postgresql-15
# (the PostgreSQL suite runs on the oldest PostgreSQL central supports). Installs what is missing, skips what
# is there; `npm test` and .ci/run both start with it.
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin
missing=()
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
command -v socat >/dev/null 2>&1 || missing+=(socat)
command -v udevadm >/dev/null 2>&1 || [ -x /usr/bin/udevadm ] || [ -x /sbin/udevadm ] || missing+=(udev)
[ -x "$PG_BIN/postgres" ] && [ -x "$PG_BIN/initdb" ] || missing+=(postgresql-15)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "npm test needs these Debian packages, which are not installed: ${missing[*]}" >&2
  echo "Install them once as root, then run npm test again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "npm test needs ${missing[*]}; this machine has no apt-get (Debian or Ubuntu expected): install them by hand." >&2
  exit 1
fi
echo "Installing Debian packages for the tests: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d may forbid starting services in a container: the package's own cluster is not used, only its binaries.
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
