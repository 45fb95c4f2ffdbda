# Sourced by scripts/e2e.sh and scripts/screenshots.sh with ROOT set (the repo): finds the shared folder
# (beside the repo, or DIALOG_SHARED) and its harness ($E2E), makes a scratch folder $WORK removed on exit,
# and defines:
#   `workspace NAME [corpus]`: $WORK/NAME, a writable workspace with the synthetic corpus dialogs, their
#     golden records, two public dialogs and test/ui's fixtures; with `corpus` also every public dialog in
#     `.corpus/public/` (a hidden folder, which the Lineage view does not scan); prints its path.
#   `build_and_package`: builds, installs the harness, packages the .vsix as a user installs it ($VSIX).
SHARED="${DIALOG_SHARED:-$(cd "$ROOT/../shared" 2>/dev/null && pwd || true)}"
[ -f "$SHARED/e2e/vscode-e2e.sh" ] || { echo "e2e: shared folder not found (set DIALOG_SHARED)" >&2; exit 2; }
E2E="$SHARED/e2e/vscode-e2e.sh"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/dialog-e2e.XXXXXX")"
VSIX="$WORK/dialog-notebooks.vsix"
trap 'rm -rf "$WORK"' EXIT

workspace() {
  local ws="$WORK/$1"
  mkdir -p "$ws/golden"
  cp "$SHARED"/corpus/synthetic/*.ipynb "$ws/"
  cp "$SHARED"/golden/synthetic/*.json "$ws/golden/"
  for stem in AnswerDotAI__solveit_demos__00_Welcome_To_Solveit AnswerDotAI__fastllm__03_acomplete; do
    cp "$SHARED/corpus/public/$stem.ipynb" "$ws/"
    cp "$SHARED/golden/public/$stem.json" "$ws/golden/"
  done
  cp "$ROOT/test/ui/fixtures/"*.ipynb "$ws/"
  if [ "${2:-}" = corpus ]; then mkdir -p "$ws/.corpus/public" && cp "$SHARED"/corpus/public/*.ipynb "$ws/.corpus/public/"; fi
  echo "$ws"
}

build_and_package() {
  bash "$E2E" install >/dev/null
  # scripts/package.mjs builds every bundle (the mocha suites' out/ too) before it packs: one build, not two.
  (cd "$ROOT" && npm run --silent package -- --out "$VSIX" >/dev/null)
}
