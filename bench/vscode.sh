#!/usr/bin/env bash
# Editor speed in the real VS Code (../shared/e2e): opening each dialog with ours and with VS Code's own
# Jupyter editor, in rounds of a window with our extension and a window without it (the peer: the built-in
# editor where none of our listeners run; there also the floor: our cells shown by VS Code alone),
# alternating (bench/vscode/editor.bench.ts, tables by openTable.mjs), plus the extension host's work per
# keystroke; then answering a prompt at the end of big dialogs against a bare fetch of the same body
# (answer.bench.ts); an agent's add_msg and view_dlg over MCP on the 2,000-cell dialog (agents.bench.ts); then
# an open 2,000-cell dialog with unsaved edits rewritten on disk, merged (outside.bench.ts); the user, an agent
# and a program writing it at once, with saves (hands.bench.ts).
# Usage: bench/vscode.sh [ROUNDS] (after `npm run build`; default 3: medians of 3); BENCH_FILES="a.ipynb
# b.ipynb" picks the workspace files opened (default: corpus dialogs and the generated 2,000-cell one;
# acomplete-notes.ipynb is 03_acomplete with its prompts as plain notes, to weigh what prompt cells cost),
# BENCH_ANSWER the ones answered, BENCH_SUITES="editor outside hands answer agents dialoghelper" which parts run
# (dialoghelper: add_msg from a kernel into the 2,000-cell dialog, dialoghelper.bench.ts); BENCH_PROFILE=1 adds the
# hottest functions of the last round's opens (BENCH_KEEP=DIR keeps their .cpuprofile files there, and a
# .heapsnapshot of each window's extension host after its opens, for DevTools or a diff; of a one-window
# suite its out dir, with the window's console, and its .cpuprofile: hands profiles its 30 s of writers).
# VSCODE_E2E_KEEP=1 keeps each window's run dir (the extension's Output log is in its user-data/logs).
# Prints the markdown tables.
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
  import { readFileSync, writeFileSync } from 'node:fs';
  import { createRequire } from 'node:module';
  const core = createRequire('$ROOT/')('./dist/core.js');
  for (const n of [2000, 10000]) writeFileSync('$WS/generated-' + n + '.ipynb', core.stringifyCanonical(generateDialog(n, 42)) + '\n');
  // Text only: the same 2,000 cells without their output images.
  const text = generateDialog(2000, 42);
  for (const c of text.cells) if (c.outputs) c.outputs = c.outputs.filter((o) => !o.data || !o.data['image/png']);
  writeFileSync('$WS/generated-2000-text.ipynb', core.stringifyCanonical(text) + '\n');
  // A dialog with its prompts as plain notes: what our prompt cells (an editor and a reply output each) cost.
  const d = JSON.parse(readFileSync('$WS/AnswerDotAI__fastllm__03_acomplete.ipynb', 'utf8'));
  for (const c of d.cells) delete c.metadata.solveit_ai;
  writeFileSync('$WS/acomplete-notes.ipynb', JSON.stringify(d, null, 1) + '\n');
"
# The 10,000-cell dialog opens in neither editor in this harness (docs/speed.md); BENCH_FILES can add it.
FILES="${BENCH_FILES:-AnswerDotAI__fastllm__00_errors.ipynb drscotthawley__midi-rae__main_chat.ipynb Rahuketu86__solveit_z2h__01_micrograd.ipynb AnswerDotAI__fastllm__03_acomplete.ipynb Rahuketu86__memexcode__Manager01.ipynb ExploringML__solveit-to-social-media__Demo.ipynb generated-2000.ipynb}"
ANSWER="${BENCH_ANSWER:-AnswerDotAI__fastllm__03_acomplete.ipynb big_300.ipynb generated-2000-text.ipynb drscotthawley__midi-rae__main_chat.ipynb ExploringML__solveit-to-social-media__Demo.ipynb generated-2000.ipynb}"
ROUNDS="${1:-3}"
echo '{ "dialogNotebook.openDialogsByDefault": false }' > "$WORK/settings.json"
# The window without our extension: a bare extension that only carries the bench (test mode needs one).
PEER="$WORK/peer"
mkdir -p "$PEER/out/bench"
cp "$ROOT"/out/bench/editor.bench.js* "$PEER/out/bench/"
# It also carries the floor (editor.bench.ts): a notebook type showing the cells ours made, with our reply
# renderer and prompt grammar, and none of our code.
mkdir -p "$PEER/dist" "$WS/floor"
cp "$ROOT/dist/replyRenderer.js" "$PEER/dist/"
cp -r "$ROOT/syntaxes" "$PEER/"
node -e "
  const ours = require('$ROOT/package.json').contributes;
  const floor = { type: 'dialog-bench-floor', displayName: 'Bench floor', selector: [{ filenamePattern: '*.ipynb' }], priority: 'option' };
  const contributes = { notebooks: [floor], notebookRenderer: ours.notebookRenderer, languages: ours.languages, grammars: ours.grammars, configurationDefaults: ours.configurationDefaults };
  require('fs').writeFileSync('$PEER/package.json', JSON.stringify({ name: 'dialog-bench-peer', publisher: 'dialog-bench', version: '0.0.0', engines: { vscode: '^1.90.0' }, contributes }));
"

# window LABEL EXTENSION_DIR SUITES TYPING(0|1): one code-server window running those bench suites.
window() {
  node -e "
    const [files, label, typing, profile, answer] = process.argv.slice(1);
    const list = files.split(' ');
    require('fs').writeFileSync('$WS/bench.json', JSON.stringify({ files: list, reps: 1, label, profile: profile === '1',
      typing: typing === '1' && list.includes('generated-2000.ipynb') ? { file: 'generated-2000.ipynb', keys: 20 } : undefined, answer: answer.split(' ') }));
  " "$FILES" "$1" "$4" "${BENCH_PROFILE:-0}" "$ANSWER"
  local tests=()
  for s in $3; do tests+=(--tests "out/bench/$s.bench.js"); done
  echo "window $1: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
  bash "$E2E" test --extension "$2" --workspace "$WS" "${tests[@]}" --settings "$WORK/settings.json" \
    --out "$WORK/out-$1" --timeout "${BENCH_TIMEOUT:-5400}" >"$WORK/log-$1" 2>&1 || { tail -20 "$WORK/log-$1"; return 1; }
}

SUITES="${BENCH_SUITES:-editor outside hands answer agents dialoghelper}"
status=0
if [[ " $SUITES " == *" editor "* ]]; then
  # Rounds of a window with our extension and one without, alternating which goes first; the typing
  # part and the profiles in the last round.
  for r in $(seq 1 "$ROUNDS"); do
    last=$([ "$r" = "$ROUNDS" ] && echo 1 || echo 0)
    if [ $((r % 2)) = 1 ]; then pair="with without"; else pair="without with"; fi
    for w in $pair; do
      if [ "$w" = with ]; then ext="$ROOT"; else ext="$PEER"; fi
      BENCH_PROFILE=$([ "$last" = 1 ] && echo "${BENCH_PROFILE:-0}" || echo 0) window "r$r-$w" "$ext" editor "$last" || status=1
    done
  done
  node "$ROOT/bench/vscode/openTable.mjs" "$WS"
  if [ -n "${BENCH_KEEP:-}" ]; then mkdir -p "$BENCH_KEEP" && cp "$WS"/*.cpuprofile "$WS"/*.heapsnapshot "$BENCH_KEEP"/ 2>/dev/null || true; fi
  if [ -f "$WS/bench-typing.md" ]; then cat "$WS/bench-typing.md"; fi
fi
# The one-window suites, each writing its table to bench-NAME.md.
for suite in outside hands answer agents dialoghelper; do
  [[ " $SUITES " == *" $suite "* ]] || continue
  window "$suite" "$ROOT" "$suite" 0 || status=1
  if [ -f "$WS/bench-$suite.md" ]; then cat "$WS/bench-$suite.md"; fi
  if [ -n "${BENCH_KEEP:-}" ]; then mkdir -p "$BENCH_KEEP" && cp -r "$WORK/out-$suite" "$BENCH_KEEP/" && cp "$WS"/*.cpuprofile "$BENCH_KEEP"/ 2>/dev/null || true; fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
