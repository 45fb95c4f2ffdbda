#!/usr/bin/env bash
# `npm run open [-- [--web] [PATH]]`: build, then open PATH in a real VS Code with the extension: a dialog
# (its folder is the workspace and the dialog is shown) or a folder of dialogs (the workspace). Your files
# are edited where they are. Without PATH, a sample dialog, copied to a temporary folder removed on exit.
# With VS Code desktop (`code` on PATH) the extension loads as a development extension; otherwise
# code-server from the shared e2e harness serves VS Code on http://127.0.0.1:${PORT:-8080} for your
# browser (Ctrl+C stops it). `--web`: always code-server, with the extension in the browser's web-worker
# extension host (the browser build, as on vscode.dev and github.dev: no local Jupyter Server there).
# VS Code's own state (user data, settings, extensions) lives in a temporary folder outside the
# workspace, removed on exit. Its settings are yours (scripts/openSettings.mjs) plus dialogs opened as
# dialogs and, unless yours say otherwise, auto save off.
# DIALOG_OPEN_CHECK=1 (scripts, tests): no build, no Jupyter set-up; code-server starts, the script prints
# `serving FOLDER` once the workbench page is served, and stops.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${DIALOG_SHARED:-$ROOT/../shared}"
CHECK="${DIALOG_OPEN_CHECK:-}"
WEB=""
if [ "${1:-}" = --web ]; then WEB=1; shift; fi
TARGET="${1:-}"

STATE="$(mktemp -d "${TMPDIR:-/tmp}/dialog-open.XXXXXX")"
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$STATE"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

FILE=""
if [ -z "$TARGET" ]; then
  WS="$STATE/sample"; mkdir -p "$WS"
  cp "$ROOT/samples/welcome.ipynb" "$WS/"
  FILE="$WS/welcome.ipynb"
elif [ -d "$TARGET" ]; then
  WS="$(cd "$TARGET" && pwd)"
elif [ -f "$TARGET" ]; then
  WS="$(cd "$(dirname "$TARGET")" && pwd)"
  FILE="$WS/$(basename "$TARGET")"
else
  echo "npm run open: no such file or folder: $TARGET" >&2
  exit 2
fi

cd "$ROOT"
if [ -z "$CHECK" ]; then
  # The dialog's code cells run in a real Jupyter kernel: set it up as `npm test` does (a failure is reported,
  # and the dialog opens all the same). Not for --web: the browser starts no local server.
  [ -n "$WEB" ] || bash scripts/install-jupyter.sh --soft
  npm run --silent build
fi

DATA="$STATE/data"; EXT="$STATE/extensions"
mkdir -p "$DATA/User" "$EXT"
DESKTOP=""; [ -z "$WEB" ] && [ -z "$CHECK" ] && command -v code >/dev/null 2>&1 && DESKTOP=1
KIND=--code-server; [ -z "$DESKTOP" ] || KIND=--desktop
node scripts/openSettings.mjs "$DATA/User/settings.json" $KIND ${WEB:+--web}

if [ -n "$DESKTOP" ]; then
  # --wait: the state folder is removed once the window is closed.
  code --extensionDevelopmentPath="$ROOT" --user-data-dir "$DATA" --extensions-dir "$EXT" --new-window --wait "$WS" ${FILE:+"$FILE"}
  exit 0
fi

CACHE="${VSCODE_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dialog-e2e}"
bash "$SHARED/e2e/vscode-e2e.sh" install >/dev/null
NODE="$(ls -d "$CACHE"/node-*/node_modules/node-linux-*/bin/node | head -1)"
CS="$(ls -d "$CACHE"/code-server-*/node_modules/code-server/out/node/entry.js | head -1)"
# As if installed: a link plus its entry in extensions.json (VS Code ignores a bare folder there).
REL="dialog-notebooks.dialog-notebooks-dev"
ln -s "$ROOT" "$EXT/$REL"
printf '[{"identifier":{"id":"dialog-notebooks.dialog-notebooks"},"version":"0.0.0","location":{"$mid":1,"path":"%s","scheme":"file"},"relativeLocation":"%s"}]' \
  "$EXT/$REL" "$REL" > "$EXT/extensions.json"
ADDR="127.0.0.1:${PORT:-8080}"
"$NODE" "$CS" --auth none --bind-addr "$ADDR" --disable-telemetry --disable-update-check --user-data-dir "$DATA" \
  --extensions-dir "$EXT" --disable-workspace-trust "$WS" > "$STATE/code-server.log" 2>&1 &
SERVER=$!

# The workbench's own URL: the folder, and the dialog to show (the `openFile` payload of VS Code's web workbench).
URL="http://$ADDR/?folder=$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$WS")"
if [ -n "$FILE" ]; then
  URL="$URL&payload=$(node -e 'process.stdout.write(encodeURIComponent(JSON.stringify([["openFile", `vscode-remote://${process.argv[1]}${process.argv[2]}`]])))' "$ADDR" "$FILE")"
fi
# Up when / answers with the redirect to the folder it serves.
for _ in $(seq 1 600); do
  served="$(curl -s -o /dev/null -w '%{redirect_url}' "http://$ADDR/" 2>/dev/null || true)"
  [ -n "$served" ] && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$STATE/code-server.log" >&2; exit 1; }
  sleep 0.1
done
if [ -n "$CHECK" ]; then
  echo "serving $(node -e 'const u = new URL(process.argv[1]); process.stdout.write(u.searchParams.get("folder") ?? "")' "$served")"
  echo "state $STATE"
  exit 0
fi
echo "Open $URL in a browser: $(basename "${FILE:-$WS}")${WEB:+ (the extension runs in the browser)}. Ctrl+C stops VS Code and removes its state."
wait "$SERVER"
