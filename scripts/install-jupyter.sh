#!/usr/bin/env bash
# Installs the real Jupyter components the kernel tests run against (Debian packages: Jupyter Server,
# ipykernel, matplotlib for the image test). Idempotent: does nothing when they are installed.
# Without apt-get (not Debian) it only says so: the kernel tests then skip with a message.
set -euo pipefail

PACKAGES=(python3-ipykernel jupyter-server python3-matplotlib)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-jupyter: ${PACKAGES[*]} already installed"
  exit 0
fi

if ! command -v apt-get >/dev/null; then
  echo "install-jupyter: no apt-get here; install Jupyter Server, ipykernel and matplotlib yourself" \
    "(pip install jupyter_server ipykernel matplotlib) or the kernel tests will skip" >&2
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-jupyter: run as root to install ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-jupyter: installing ${missing[*]}"
# Try the existing package lists first; refresh them only when they are stale or absent.
if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
