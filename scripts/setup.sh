#!/usr/bin/env bash
# Installs what the project needs on a fresh machine, and nothing when it is already there:
# Debian's chromium, firefox-esr and xvfb (as root, with apt-get), then the npm packages.
# Sourced by scripts/test.sh and scripts/demo.sh.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || [ -n "${CHROME_PATH:-}" ] || missing+=(chromium)
command -v firefox-esr >/dev/null 2>&1 || missing+=(firefox-esr)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing[*]} with apt-get" >&2
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
  else
    echo "setup: missing ${missing[*]}. Install them with: sudo apt-get install -y ${missing[*]}" >&2
    echo "       (or set CHROME_PATH to a Chromium-based browser)" >&2
    exit 1
  fi
fi

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js 20 or newer is needed (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

# npm ci when node_modules is missing or older than the lockfile (it also builds the CLI).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund >&2
fi
