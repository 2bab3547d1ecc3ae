#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds NaNscope's Linux packages from scratch or incrementally, into build/packages/:
#   scripts/package.sh            the .deb files and the AppImage
#   scripts/package.sh deb        nanscope, libnanscope-recorder<soversion>, libnanscope-recorder-dev
#   scripts/package.sh appimage   NaNscope-<version>-<arch>.AppImage
# Each is one CMake workflow preset (configure "package", build, cpack), e.g.
# `cmake --workflow --preset appimage`; nothing is downloaded while building.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-all}" in
deb | appimage) presets=("$1") ;;
all) presets=(deb appimage) ;;
*)
    echo "usage: $0 [deb|appimage|all]" >&2
    exit 2
    ;;
esac

bash scripts/setup.sh
for preset in "${presets[@]}"; do
    cmake --workflow --preset "$preset"
done
ls -l build/packages
