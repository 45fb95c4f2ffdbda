#!/usr/bin/env bash
# Sets up the real Jupyter that the kernel tests, and the code cells of `npm run open`'s dialog, run
# against: Jupyter Server, ipykernel, and matplotlib for the image test. `npm test` and `npm run open` run
# it first. Idempotent: nothing happens when a Python already has them. Otherwise it installs Debian's
# packages (as root, or through sudo without a password). Where it cannot (no apt-get, no root, no sudo),
# it stops at once with one line that names what to install, so that no kernel suite starts and waits out
# its timeouts.
#   DIALOG_TEST_NO_KERNEL=1  skip the set-up (the kernel suites then skip too, and the test run says so)
#   --soft                   report a failure but exit 0 (`npm run open`: the dialog opens all the same)
set -euo pipefail

PACKAGES=(python3-ipykernel jupyter-server python3-matplotlib)
MODULES='jupyter_server, ipykernel, matplotlib'
soft=0; [ "${1:-}" = --soft ] && soft=1

fail() {
  echo "install-jupyter: $1" >&2
  [ "$soft" -eq 1 ] && exit 0
  exit 1
}

if [ "${DIALOG_TEST_NO_KERNEL:-}" = 1 ]; then
  echo "install-jupyter: skipped (DIALOG_TEST_NO_KERNEL=1): the kernel tests will be skipped"
  exit 0
fi

has_jupyter() {
  local py
  for py in python3 /usr/bin/python3; do
    command -v "$py" >/dev/null 2>&1 && "$py" -c "import $MODULES" >/dev/null 2>&1 && return 0
  done
  return 1
}
if has_jupyter; then
  echo "install-jupyter: Jupyter Server, ipykernel and matplotlib are installed"
  exit 0
fi

WHAT="Jupyter is missing: install Jupyter Server, ipykernel and matplotlib (pip install jupyter_server ipykernel matplotlib, or apt-get install ${PACKAGES[*]}), or set DIALOG_TEST_NO_KERNEL=1 to skip the kernel tests"
command -v apt-get >/dev/null 2>&1 || fail "$WHAT"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || fail "$WHAT (installing needs root or sudo)"
  sudo=(sudo -n)
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-jupyter: installing ${PACKAGES[*]} (Debian packages)"
# Try the package lists there are first; refresh them only when that fails (stale or absent lists).
if ! "${sudo[@]}" apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >/tmp/install-jupyter.$$.log 2>&1; then
  "${sudo[@]}" apt-get update -q >>/tmp/install-jupyter.$$.log 2>&1 || true
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >>/tmp/install-jupyter.$$.log 2>&1 ||
    { tail -5 /tmp/install-jupyter.$$.log >&2; fail "$WHAT (apt-get install failed, see above)"; }
fi
rm -f /tmp/install-jupyter.$$.log
has_jupyter || fail "$WHAT (installed ${PACKAGES[*]}, but no Python imports $MODULES)"
echo "install-jupyter: installed ${PACKAGES[*]}"
