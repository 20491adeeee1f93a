#!/usr/bin/env bash
# The test command: set up what is missing, then run every test (unit and real-browser e2e).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
npm test
