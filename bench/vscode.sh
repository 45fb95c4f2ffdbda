#!/usr/bin/env bash
# Editor speed in the real VS Code (../shared/e2e): ours against the built-in Jupyter editor on the same
# dialogs in one run (bench/vscode/editor.bench.ts), plus the extension host's work per keystroke; then
# answering a prompt at the end of big dialogs against a bare fetch of the same body (answer.bench.ts).
# Usage: bench/vscode.sh [REPS] (after `npm run build`); BENCH_FILES="a.ipynb b.ipynb" picks the
# workspace files opened (default: corpus dialogs, the generated 2,000- and 10,000-cell ones),
# BENCH_ANSWER the ones answered, BENCH_SUITES="editor answer" which parts run; BENCH_PROFILE=1 adds the
# hottest functions of our opens. Prints the markdown tables.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${DIALOG_SHARED:-$(cd "$ROOT/../shared" 2>/dev/null && pwd || true)}"
E2E="$SHARED/e2e/vscode-e2e.sh"
[ -f "$E2E" ] || { echo "bench: shared folder not found (set DIALOG_SHARED)" >&2; exit 2; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/dialog-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
WS="$WORK/ws"
mkdir -p "$WS"

# The biggest public dialogs, ones with pasted images (attachments), and a small one.
PUBLIC="$SHARED/corpus/public"
for f in AnswerDotAI__fastllm__00_errors drscotthawley__midi-rae__main_chat Rahuketu86__solveit_z2h__01_micrograd \
  AnswerDotAI__fastllm__03_acomplete Rahuketu86__memexcode__Manager01 ExploringML__solveit-to-social-media__Demo; do
  cp "$PUBLIC/$f.ipynb" "$WS/"
done
cp "$SHARED/corpus/perf/big_300.ipynb" "$WS/"
# Big dialogs from bench/'s generator, which follows the corpus' mix of cells.
node --input-type=module -e "
  import { generateDialog } from '$ROOT/bench/generateDialog.mjs';
  import { writeFileSync } from 'node:fs';
  import { createRequire } from 'node:module';
  const core = createRequire('$ROOT/')('./dist/core.js');
  for (const n of [2000, 10000]) writeFileSync('$WS/generated-' + n + '.ipynb', core.stringifyCanonical(generateDialog(n, 42)) + '\n');
  // Text only: the same 2,000 cells without their output images.
  const text = generateDialog(2000, 42);
  for (const c of text.cells) if (c.outputs) c.outputs = c.outputs.filter((o) => !o.data || !o.data['image/png']);
  writeFileSync('$WS/generated-2000-text.ipynb', core.stringifyCanonical(text) + '\n');
"
FILES="${BENCH_FILES:-AnswerDotAI__fastllm__00_errors.ipynb drscotthawley__midi-rae__main_chat.ipynb Rahuketu86__solveit_z2h__01_micrograd.ipynb AnswerDotAI__fastllm__03_acomplete.ipynb Rahuketu86__memexcode__Manager01.ipynb ExploringML__solveit-to-social-media__Demo.ipynb generated-2000.ipynb generated-10000.ipynb}"
ANSWER="${BENCH_ANSWER:-AnswerDotAI__fastllm__03_acomplete.ipynb big_300.ipynb generated-2000-text.ipynb drscotthawley__midi-rae__main_chat.ipynb ExploringML__solveit-to-social-media__Demo.ipynb generated-2000.ipynb}"
node -e "
  const files = process.argv[1].split(' ');
  require('fs').writeFileSync('$WS/bench.json', JSON.stringify({ files, reps: Number(process.argv[2]), profile: process.argv[3] === '1',
    typing: files.includes('generated-2000.ipynb') ? { file: 'generated-2000.ipynb', keys: 20 } : undefined, answer: process.argv[4].split(' ') }));
" "$FILES" "${1:-3}" "${BENCH_PROFILE:-0}" "$ANSWER"
TESTS=()
for s in ${BENCH_SUITES:-editor answer}; do TESTS+=(--tests "out/bench/$s.bench.js"); done
echo '{ "dialogNotebook.openDialogsByDefault": false }' > "$WORK/settings.json"

echo "editor bench: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
bash "$E2E" test --extension "$ROOT" --workspace "$WS" "${TESTS[@]}" --settings "$WORK/settings.json" \
  --out "$WORK/out" --timeout "${BENCH_TIMEOUT:-5400}" >"$WORK/log" 2>&1 || { tail -20 "$WORK/log"; cat "$WS/bench-results.md" "$WS/bench-answer.md" 2>/dev/null; exit 1; }
# Each part writes its table (a part not run writes none).
for f in "$WS/bench-results.md" "$WS/bench-answer.md"; do if [ -f "$f" ]; then cat "$f"; fi; done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
