# Sourced by scripts/e2e.sh and scripts/screenshots.sh (needs ROOT, SHARED and WORK set):
# `workspace NAME` makes $WORK/NAME, a writable workspace with the synthetic corpus dialogs, their golden
# records, two public dialogs and test/ui's fixtures, and prints its path.
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
  echo "$ws"
}
