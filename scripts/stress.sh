#!/usr/bin/env bash
# Many hands at once on one dialog (test/extension/stress.test.ts) over many seeds, in the real VS Code.
# `npm run stress` runs seeds 1..20, 30 s each; DIALOG_STRESS_SEEDS="7 8" replays seeds and
# DIALOG_STRESS_SECONDS sets the length. `npm test` runs the suite's few fixed seeds.
set -euo pipefail
export DIALOG_STRESS_SEEDS="${DIALOG_STRESS_SEEDS:-$(seq -s ' ' 1 20)}"
E2E_SUITES=stress E2E_UI=none E2E_WEB=none exec bash "$(dirname "$0")/e2e.sh" "$@"
