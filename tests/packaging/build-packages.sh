#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Test fixture: runs cpack on this build directory once, so that the packaging tests check the
# very packages that `cpack` makes (the .deb files and, with the AppImage runtime, the AppImage).
#   usage: build-packages.sh BUILD_DIR PACKAGE_DIR
set -euo pipefail
build=$1
out=$2

generators=()
if command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null; then
    generators+=(DEB)
else
    echo "note: no dpkg-deb/dpkg-shlibdeps here, so no .deb (the .deb test will say it skips)"
fi
if grep -q '^set(CPACK_APPIMAGE_RUNTIME "[^"]' "$build/CPackConfig.cmake"; then
    generators+=(External)
else
    echo "note: the AppImage runtime is not configured, so no AppImage (its test will skip)"
fi
rm -rf "$out"
mkdir -p "$out"
if [ ${#generators[@]} -eq 0 ]; then
    echo "nothing to package here"
    exit 0
fi
list=$(IFS=';'; echo "${generators[*]}")
start=$(date +%s%N)
cpack --config "$build/CPackConfig.cmake" -G "$list" -B "$out"
echo "cpack -G '$list' took $((($(date +%s%N) - start) / 1000000)) ms"
ls -l "$out"
