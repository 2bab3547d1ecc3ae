#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs every Debian package that building and testing NaNscope needs.
# Idempotent: when everything is present it only runs dpkg-query and exits.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config ccache
  # the checks of the house style: formatting and static analysis
  clang-format clang-tidy-16
  protobuf-compiler libprotobuf-dev
  libdw-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  catch2 libbenchmark-dev
  qt6-base-dev libgl-dev
  libgraphviz-dev
  libqscintilla2-qt6-dev qt6-svg-dev xvfb xauth
  # the Python package (pybind11) and its PyTorch recorder's tests; torch's C++ headers for
  # the C++ op observer (apt recommends them with python3-torch, which this skips)
  python3-dev pybind11-dev python3-pybind11 python3-torch python3-numpy libtorch-dev
  # pip install of the package into a fresh venv (tests/python/test-pip-install.sh)
  python3-venv python3-setuptools python3-pip
  # packaging: the AppImage runtime's static libraries, AppDir bundling and packing, .deb
  # building, and the checks of the desktop files, the .msi description and the CI workflows
  libsquashfuse-dev libfuse3-dev libzstd-dev liblzma-dev liblz4-dev zlib1g-dev
  squashfs-tools patchelf binutils file dpkg-dev
  desktop-file-utils appstream shared-mime-info libxml2-utils wixl msitools python3-yaml
)
# Fuzzing (scripts/fuzz.sh passes "fuzz"): libFuzzer needs Clang and its runtime, which the
# build and the tests do not.
if [ "${1:-}" = fuzz ]; then
  packages+=(clang-16 libclang-rt-16-dev)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "error: need root or sudo to install packages" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
