#!/usr/bin/env bash
# The extension host's memory while answering (issue 28): bench/vscode/answerMemory.mem.ts answers 200
# prompts in a row in one real VS Code window (../shared/e2e) against the local Anthropic mock and prints
# the heap after GC before, every 50 answers and after. Usage: bench/memory.sh (after `npm run build`).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${DIALOG_SHARED:-$(cd "$ROOT/../shared" 2>/dev/null && pwd || true)}"
E2E="$SHARED/e2e/vscode-e2e.sh"
[ -f "$E2E" ] || { echo "bench: shared folder not found (set DIALOG_SHARED)" >&2; exit 2; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/dialog-memory.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/ws"
echo "memory bench: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
bash "$E2E" test --extension "$ROOT" --workspace "$WORK/ws" --tests 'out/bench/**/*.mem.js' \
  --out "$WORK/out" --timeout "${BENCH_TIMEOUT:-3600}" >"$WORK/log" 2>&1 || { tail -20 "$WORK/log"; exit 1; }
cat "$WORK/ws/memory-results.md"
