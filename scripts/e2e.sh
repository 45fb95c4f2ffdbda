#!/usr/bin/env bash
# End-to-end tests of the extension in a real VS Code (code-server, see ../shared/e2e/README.md):
#   1. the mocha suites in test/extension run inside the real extension host (`vscode-e2e.sh test`);
#   2. each Playwright script test/ui/*.mjs checks what a person sees (`vscode-e2e.sh run`).
# Screenshots go to OUT_DIR only; `npm run screenshots` refreshes the README's pictures in media/.
# Usage: scripts/e2e.sh [OUT_DIR]. Needs the shared folder beside the repo (or DIALOG_SHARED=path).
# While working on one feature: E2E_SUITES='kernel answer' runs only test/extension/{kernel,answer}.test.ts,
# E2E_GREP='Run All' only the mocha tests whose title matches, E2E_UI='panel dialog' only those UI
# scripts (E2E_UI=none: no UI script, E2E_SUITES=none: no mocha suite). A script's test/ui/NAME.extension/
# folder is a test extension packed as a .vsix and installed beside ours for that script.
# 3. the web pass (test/web/pass.mjs): suites again with the extension in the browser's web-worker
#    extension host (test/web/settings.json), plus answering and code cells from the browser. By default
#    $WEB_DEFAULT, only when E2E_SUITES is not set; E2E_WEB='open save' names the suites (test/web/runner.ts
#    lists them), E2E_WEB=default the default ones, E2E_WEB=all all of them, E2E_WEB=none none. E2E_GREP applies there too.
# Exits non-zero on any failure; ends with one `e2e: N passed, N failed` line for both parts together.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/e2eWorkspace.sh
source "$ROOT/scripts/e2eWorkspace.sh"
OUT="${1:-$ROOT/e2e-out}"
rm -rf "$OUT"; mkdir -p "$OUT"

cd "$ROOT"
# The Playwright scripts load the packaged .vsix, as a user installs it: packaging is tested too.
build_and_package

status=0
tests=(--tests 'out/test/extension/**/*.test.js')
if [ -n "${E2E_SUITES:-}" ]; then
  tests=(); for s in $E2E_SUITES; do tests+=(--tests "out/test/extension/$s.test.js"); done
fi
grep=(); [ -z "${E2E_GREP:-}" ] || grep=(--grep "$E2E_GREP")
if [ "${E2E_SUITES:-}" != none ]; then
  # The pass takes ~17 min on a quiet 2-core machine and over 30 with two CPU-bound processes and a second
  # VS Code test run beside it: its limit is an hour.
  bash "$E2E" test --extension "$ROOT" --workspace "$(workspace mocha corpus)" "${tests[@]}" "${grep[@]}" \
    --out "$OUT/mocha" --timeout 3600 2>&1 | tee "$OUT/mocha.log" || status=1
else
  echo "mocha: 0 passed, 0 failed" > "$OUT/mocha.log"
fi
# Each Playwright script gets a fresh workspace (scripts save and edit files), and test/ui/NAME.settings.json
# instead of the common settings when it has one. Except the scripts of UI_TOGETHER, which only read (no
# dialog edited, no setting changed, no offer answered, the common settings, no test extension): they run
# one after another in one window (test/ui/lib/together.mjs), which saves a window's start (15-40 s) each.
UI_TOGETHER="agents share search panel-untrusted reply-xss folded-sections"
together=()
for script in "$ROOT"/test/ui/*.mjs; do
  name="$(basename "$script" .mjs)"
  if [ -n "${E2E_UI:-}" ] && [[ " $E2E_UI " != *" $name "* ]]; then continue; fi
  if [[ " $UI_TOGETHER " == *" $name "* ]]; then together+=("$name"); continue; fi
  settings="$ROOT/test/ui/$name.settings.json"
  [ -f "$settings" ] || settings="$ROOT/test/ui/settings.json"
  # test/ui/NAME.extension/: a test extension the script needs, packed and installed beside ours as a user installs one.
  extra=()
  if [ -d "$ROOT/test/ui/$name.extension" ]; then
    (cd "$ROOT/test/ui/$name.extension" && npx --prefix "$ROOT" vsce package --out "$WORK/$name-extension.vsix" --allow-missing-repository --skip-license >/dev/null)
    extra=(--extension "$WORK/$name-extension.vsix")
  fi
  bash "$E2E" run --extension "$VSIX" "${extra[@]}" --workspace "$(workspace "ui-$name")" --script "$script" \
    --settings "$settings" --out "$OUT/ui-$name" --timeout 600 2>&1 | tee "$OUT/ui-$name.log" || status=1
done
if [ ${#together[@]} -gt 0 ]; then
  E2E_TOGETHER="${together[*]}" bash "$E2E" run --extension "$VSIX" --workspace "$(workspace ui-together)" \
    --script "$ROOT/test/ui/lib/together.mjs" --settings "$ROOT/test/ui/settings.json" --out "$OUT/ui-together" \
    --timeout $((600 * ${#together[@]})) 2>&1 | tee "$OUT/ui-together.log" || status=1
fi

# Web-only suites first (sharing a dialog to a CORS GitHub stand-in among them), then the shared suites that need no local process and prove the rest (≈5 min):
# opening and saving byte for byte (and opening every dialog with auto save on writes nothing), surgery as one undo step each, the panel, outline and sections (an image
# scaled by OffscreenCanvas), forks and the Lineage view, a dialog on a virtual file system. `all` adds the other shared suites that run there
# (≈7 min).
WEB_DEFAULT="host answerWeb readUrlWeb shareWeb kernelWeb fileRefsWeb dialogToolsWeb searchWeb open openUntouched save commandsSurgery navigation navTree fork virtualWorkspace"
WEB_ALL="$WEB_DEFAULT undo serializer saveUnicode commands friction mergeMixed sectionsLive validateReveal untrustedReply"
web="${E2E_WEB:-}"
[ -n "$web" ] || { [ -n "${E2E_SUITES:-}" ] && web=none || web="$WEB_DEFAULT"; }
[ "$web" != all ] || web="$WEB_ALL"
[ "$web" != default ] || web="$WEB_DEFAULT"
# Without Jupyter by choice, the web pass runs no code cell either.
[ "${DIALOG_TEST_NO_KERNEL:-}" != 1 ] || web="$(echo " $web " | sed 's/ kernelWeb / /; s/^ *//; s/ *$//')"
if [ "$web" != none ]; then
  # Left out there: Fork and Rerun starts a mock model server from inside the extension host (desktop only).
  WEB_SUITES="$web" WEB_GREP="${E2E_GREP:-}" WEB_SKIP="$([ -n "${E2E_GREP:-}" ] || echo 'Fork and Rerun')" \
    bash "$E2E" run --install dev --extension "$ROOT" --workspace "$(workspace web corpus)" --script "$ROOT/test/web/pass.mjs" \
    --settings "$ROOT/test/web/settings.json" --out "$OUT/web" --timeout 1800 2>&1 | tee "$OUT/web.log" || status=1
fi

# The closing "N passed, N failed" line of each part ("0 1" when a part printed none).
count() {
  local line
  line=$(grep -Eo "^$1: [0-9]+ passed, [0-9]+ failed" "$2" | tail -1 || true)
  if [ -n "$line" ]; then echo "$line" | sed -E 's/^[a-z0-9]+: ([0-9]+) passed, ([0-9]+) failed/\1 \2/'; else echo "0 1"; fi
}
read -r passed failed < <(count mocha "$OUT/mocha.log")
for log in "$OUT"/ui-*.log; do
  [ -e "$log" ] || continue
  read -r p f < <(count e2e "$log")
  passed=$((passed + p)); failed=$((failed + f))
done
if [ "$web" != none ]; then
  read -r p f < <(count web "$OUT/web.log")
  passed=$((passed + p)); failed=$((failed + f))
fi
[ "$failed" -eq 0 ] || status=1
# The failed tests again at the end, each with its log, where a CI page that keeps only the tail shows them.
if [ "$status" -ne 0 ]; then
  echo "e2e: what failed:"
  grep -H -A2 "✘" "$OUT"/*.log | sed "s|^$OUT/||" || echo "  (no test marked failed: a part did not finish, see its log)"
fi
[ "${DIALOG_TEST_NO_KERNEL:-}" != 1 ] || echo "e2e: the kernel suites were skipped (DIALOG_TEST_NO_KERNEL=1)"
echo "e2e: $passed passed, $failed failed"
exit "$status"
