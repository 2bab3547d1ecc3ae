#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One version everywhere: everything that shows NaNscope's version shows the one of
# project(VERSION) in CMakeLists.txt. (The About box is checked by the views test
# tst_desktopentry, which needs a widget tree.)
#   usage: test-version.sh VERSION BUILD_DIR NANSCOPE NANSCOPE_REPORT DEMO PACKAGE_DIR APP_ID
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
source "$here/lib.sh"

version=$1
build=$2
nanscope=$3
report=$4
demo=$5
packages=$6
id=$7
make_temp_dir

header="$build/generated/include/nanscope/version.hpp"
grep -qx "#define NANSCOPE_VERSION \"$version\"" "$header" || fail "$header does not say $version"
ok "nanscope/version.hpp: $version"

out=$(QT_QPA_PLATFORM=offscreen "$nanscope" --version 2>/dev/null) || fail "nanscope --version failed"
[ "$out" = "NaNscope $version" ] || fail "nanscope --version printed: $out"
ok "nanscope --version: $out"
out=$("$report" --version 2>/dev/null) || fail "nanscope-report --version failed"
[ "$out" = "nanscope-report $version" ] || fail "nanscope-report --version printed: $out"
ok "nanscope-report --version: $out"

record_demo "$demo" "$TEST_TMP/logdir"
"$report" --json "$TEST_TMP/logdir" >"$TEST_TMP/report.json" || true
grep -q "\"tensorflow_version\": \"NaNscope $version\"" "$TEST_TMP/report.json" ||
    fail "the recorder's metadata record does not say NaNscope $version"
ok "the recorder's metadata record: tensorflow_version \"NaNscope $version\""

grep -q "<release version=\"$version\"" "$build/resources/$id.metainfo.xml" ||
    fail "the AppStream metadata's release is not $version"
ok "AppStream release $version"
grep -qx "Version: $version" "$build/recorder/sdk/nanscope-recorder.pc" || fail "nanscope-recorder.pc"
grep -q "set(PACKAGE_VERSION \"$version\")" "$build/recorder/sdk/NaNscopeRecorderConfigVersion.cmake" ||
    fail "NaNscopeRecorderConfigVersion.cmake"
ok "pkg-config and CMake package versions: $version"
grep -q "Version=\"$version\"" "$build/packaging/windows/nanscope.wxs" || fail "nanscope.wxs"
ok "the .msi's product version: $version"

# The packages that cpack made, by name and by their own metadata.
found=0
for deb in "$packages"/*.deb; do
    [ -f "$deb" ] || continue
    [[ $(basename "$deb") == *"_${version}_"* ]] || fail "$(basename "$deb") does not carry $version"
    [ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "$(basename "$deb")'s Version field"
    found=$((found + 1))
done
for appimage in "$packages"/*.AppImage; do
    [ -f "$appimage" ] || continue
    [[ $(basename "$appimage") == "NaNscope-$version-"* ]] || fail "$(basename "$appimage")"
    found=$((found + 1))
done
[ "$found" -gt 0 ] || skip "every other place says $version; cpack made no package to check here"
ok "$found package files named and labelled $version"
