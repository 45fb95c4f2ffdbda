#!/usr/bin/env bash
# `npm run screenshots`: refreshes the README's pictures. Runs the two Playwright scripts that take them
# against the packaged .vsix (as scripts/e2e.sh does) and copies dialog.mjs's dialog.png to
# media/screenshot.png and panel-themes.mjs's dark history tab to media/panel.png, only when both passed.
# Usage: scripts/screenshots.sh [OUT_DIR]. Needs the shared folder beside the repo (or DIALOG_SHARED=path).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/e2eWorkspace.sh
source "$ROOT/scripts/e2eWorkspace.sh"
OUT="${1:-$ROOT/e2e-out/screenshots}"
rm -rf "$OUT"; mkdir -p "$OUT"

build_and_package
for name in dialog panel-themes; do
  bash "$E2E" run --extension "$VSIX" --workspace "$(workspace "ui-$name")" --script "$ROOT/test/ui/$name.mjs" \
    --settings "$ROOT/test/ui/settings.json" --out "$OUT/ui-$name" --timeout 600
done
cp "$OUT/ui-dialog/dialog.png" "$ROOT/media/screenshot.png"
cp "$OUT/ui-panel-themes/panel-theme-dark-history.png" "$ROOT/media/panel.png"
echo "screenshots: media/screenshot.png and media/panel.png refreshed"
