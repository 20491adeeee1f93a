#!/usr/bin/env bash
# The demo command: set up what is missing (browsers, Xvfb, npm packages), then run the demo with
# the given arguments, e.g. `bash scripts/demo.sh --firefox` or `bash scripts/demo.sh --headless
# --scenario lost-buffer --out /tmp/lens`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
npm run demo -- "$@"
