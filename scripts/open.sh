#!/usr/bin/env bash
# `npm run open [-- [--web] FILE.ipynb]`: build, then open a dialog in a real VS Code. With VS Code desktop
# (`code` on PATH) the extension loads as a development extension; otherwise code-server from the
# shared e2e harness serves VS Code on http://127.0.0.1:${PORT:-8080} for your browser (Ctrl+C stops it).
# `--web`: always code-server, with the extension in the browser's web-worker extension host (the
# browser build, as on vscode.dev and github.dev: no local Jupyter Server there, see README).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${DIALOG_SHARED:-$ROOT/../shared}"
WEB=""
if [ "${1:-}" = --web ]; then WEB=1; shift; fi
FILE="${1:-$SHARED/corpus/public/AnswerDotAI__solveit_demos__00_Welcome_To_Solveit.ipynb}"
cd "$ROOT"
# The dialog's code cells run in a real Jupyter kernel: set it up as `npm test` does (a failure is reported, and
# the dialog opens all the same). Not for --web: the browser starts no local server.
[ -n "$WEB" ] || bash scripts/install-jupyter.sh --soft
npm run --silent build
WS="$(mktemp -d "${TMPDIR:-/tmp}/dialog-open.XXXXXX")"
cp "$FILE" "$WS/"
if [ -n "$WEB" ]; then
  echo '{ "dialogNotebook.openDialogsByDefault": true, "remote.extensionKind": { "dialog-notebooks.dialog-notebooks": ["web"] } }' > "$WS/.settings.json"
else
  echo '{ "dialogNotebook.openDialogsByDefault": true }' > "$WS/.settings.json"
fi
if [ -z "$WEB" ] && command -v code >/dev/null 2>&1; then
  exec code --extensionDevelopmentPath="$ROOT" "$WS" "$WS/$(basename "$FILE")"
fi
CACHE="${VSCODE_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dialog-e2e}"
bash "$SHARED/e2e/vscode-e2e.sh" install >/dev/null
NODE="$(ls -d "$CACHE"/node-*/node_modules/node-linux-*/bin/node | head -1)"
CS="$(ls -d "$CACHE"/code-server-*/node_modules/code-server/out/node/entry.js | head -1)"
DATA="$WS/.vscode-data"; mkdir -p "$DATA/User" "$DATA/extensions"
cp "$WS/.settings.json" "$DATA/User/settings.json"
# As if installed: a link plus its entry in extensions.json (VS Code ignores a bare folder there).
REL="dialog-notebooks.dialog-notebooks-dev"
ln -s "$ROOT" "$DATA/extensions/$REL"
printf '[{"identifier":{"id":"dialog-notebooks.dialog-notebooks"},"version":"0.0.0","location":{"$mid":1,"path":"%s","scheme":"file"},"relativeLocation":"%s"}]' \
  "$DATA/extensions/$REL" "$REL" > "$DATA/extensions/extensions.json"
echo "Open http://127.0.0.1:${PORT:-8080}/ in a browser; the dialog is $(basename "$FILE") (opened as a dialog by default)${WEB:+; the extension runs in the browser}."
exec "$NODE" "$CS" --auth none --bind-addr "127.0.0.1:${PORT:-8080}" --disable-telemetry --user-data-dir "$DATA" \
  --extensions-dir "$DATA/extensions" --disable-workspace-trust "$WS"
