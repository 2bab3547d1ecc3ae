#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The AppImage that cpack made: its type-2 layout (magic, payload offset = runtime size, a
# squashfs image with AppRun, one .desktop file and the icon), the runtime's options, --version
# through FUSE and through extract-and-run, the bundled demo and report, and the window: under
# Xvfb, with the host's Qt, QScintilla, ICU, Graphviz, protobuf and libdw hidden (as root, in a
# private mount namespace), it opens the demo's logdir from its .metadata file, jumps to the first
# alert and saves a screenshot.
#   usage: test-appimage.sh PACKAGE_DIR RUNTIME VERSION SCREENSHOT_DIR HOST_BUILT_NANSCOPE
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
source "$here/lib.sh"

packages=$1
runtime=$2
version=$3
shots=$4
host_built=$5

appimage="$packages/NaNscope-$version-$(uname -m).AppImage"
[ -f "$runtime" ] || skip "no AppImage runtime was built (scripts/setup.sh installs its libraries)"
[ -f "$appimage" ] || fail "cpack made no $appimage ($(ls "$packages"))"
make_temp_dir
echo "$(basename "$appimage"): $(stat -c %s "$appimage") bytes"

# The type-2 layout.
magic=$(od -An -tx1 -j8 -N3 "$appimage" | tr -d ' \n')
[ "$magic" = 414902 ] || fail "bytes 8..10 are $magic, not the type-2 magic 41 49 02"
ok "AI\\x02 magic at offset 8"
offset=$("$appimage" --appimage-offset)
[ "$offset" = "$(stat -c %s "$runtime")" ] ||
    fail "--appimage-offset says $offset, the runtime has $(stat -c %s "$runtime") bytes"
ok "--appimage-offset $offset = the runtime's size"
[ "$(head -c 4 <(tail -c +$((offset + 1)) "$appimage"))" = hsqs ] ||
    fail "no squashfs image at byte $offset"
if command -v unsquashfs >/dev/null; then
    listing=$(unsquashfs -o "$offset" -l "$appimage")
    for entry in AppRun .DirIcon org.nanscope.NaNscope.desktop org.nanscope.NaNscope.png \
        usr/bin/nanscope usr/bin/qt.conf usr/lib/libqscintilla2_qt6.so.15 \
        usr/plugins/platforms/libqxcb.so usr/plugins/platforms/libqoffscreen.so \
        usr/plugins/platforms/libqminimal.so usr/plugins/iconengines/libqsvgicon.so \
        usr/plugins/imageformats/libqsvg.so usr/lib/graphviz/config6a; do
        grep -qx "squashfs-root/$entry" <<<"$listing" || fail "the image has no $entry"
    done
    for dir in xcbglintegrations platforminputcontexts; do
        grep -q "^squashfs-root/usr/plugins/$dir/.*\.so$" <<<"$listing" ||
            fail "the image has no Qt $dir plugin"
    done
    ok "unsquashfs reads the image: $(grep -c '\.so' <<<"$listing") shared objects, AppRun, .desktop, icons"
    for text in LICENSE notice.txt Apache-2.0.txt GPL-3.0-or-later.txt; do
        grep -qx "squashfs-root/usr/share/licenses/nanscope/$text" <<<"$listing" ||
            fail "the image has no licence text $text"
    done
    for package in 'libqscintilla2-qt6[^/]*' libqt6core6 'libprotobuf[0-9]*'; do
        grep -qx "squashfs-root/usr/share/doc/$package/copyright" <<<"$listing" ||
            fail "the image has no copyright file of $package, whose library it bundles"
    done
    ok "licences: NaNscope's texts and the copyright files of the bundled libraries' packages"
    unsquashfs -q -o "$offset" -d "$TEST_TMP/unpacked" "$appimage" usr/bin >/dev/null
    for program in nanscope nanscope-report nanscope-demo-mlp; do
        file -b "$TEST_TMP/unpacked/usr/bin/$program" | quiet_grep ", stripped" ||
            fail "$program in the AppImage is not stripped"
    done
    ok "the three programs are stripped"
fi
[ "$("$appimage" --appimage-version)" = "$version" ] || fail "--appimage-version is not $version"
"$appimage" --appimage-help | quiet_grep -- --appimage-extract-and-run || fail "--appimage-help"
if "$appimage" --appimage-no-such-option >/dev/null 2>&1; then
    fail "an unknown --appimage- option should fail"
fi
ok "--appimage-version, --appimage-help, unknown options refused"

# --version, through FUSE (or the runtime's own fallback) and through extract-and-run.
export QT_QPA_PLATFORM=offscreen
start=$(now_ns)
out=$("$appimage" --version 2>&1) || fail "--version failed: $out"
fuse_ms=$(ms_since "$start")
grep -qx "NaNscope $version" <<<"$out" || fail "--version printed: $out"
ok "--version: NaNscope $version in $fuse_ms ms (default mode)"
start=$(now_ns)
out=$("$appimage" --appimage-extract-and-run --version 2>&1) || fail "extract-and-run: $out"
extract_ms=$(ms_since "$start")
grep -qx "NaNscope $version" <<<"$out" || fail "--appimage-extract-and-run --version printed: $out"
ok "--appimage-extract-and-run --version: NaNscope $version in $extract_ms ms"
out=$(APPIMAGE_EXTRACT_AND_RUN=1 "$appimage" --version 2>&1) || fail "APPIMAGE_EXTRACT_AND_RUN=1: $out"
grep -qx "NaNscope $version" <<<"$out" || fail "APPIMAGE_EXTRACT_AND_RUN=1 --version printed: $out"
ok "APPIMAGE_EXTRACT_AND_RUN=1 --version"
(cd "$TEST_TMP" && "$appimage" --appimage-extract '*.desktop' >/dev/null)
[ -f "$TEST_TMP/squashfs-root/org.nanscope.NaNscope.desktop" ] || fail "--appimage-extract GLOB"
ok "--appimage-extract '*.desktop'"

# The bundled tools, started through links named after them (AppRun picks the program).
ln -s "$appimage" "$TEST_TMP/nanscope-demo-mlp"
ln -s "$appimage" "$TEST_TMP/nanscope-report"
logdir=$TEST_TMP/logdir
record_demo "$TEST_TMP/nanscope-demo-mlp" "$logdir"
metadata=$(metadata_file "$logdir")
status=0
"$TEST_TMP/nanscope-report" --json "$metadata" >"$TEST_TMP/report.json" || status=$?
[ "$status" = 1 ] || fail "nanscope-report from the AppImage exited $status, expected 1 (alerts)"
grep -q "\"tensorflow_version\": \"NaNscope $version\"" "$TEST_TMP/report.json" ||
    fail "the report does not name NaNscope $version as the writer"
ok "the AppImage's nanscope-demo-mlp recorded a logdir that its nanscope-report reads"

# The window, under Xvfb, from the .metadata file as a file manager would pass it.
command -v xvfb-run >/dev/null || skip "xvfb-run is missing (package xvfb), so the window was not checked"
mask=()
masked=no
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
    mask=(unshare -m bash "$here/hide-host-libs.sh")
    masked=yes
    # The check of the check: the build tree's nanscope, linked to the host's Qt, cannot start.
    [ -x "$host_built" ] || fail "no $host_built"
    if "${mask[@]}" "$host_built" --version >"$TEST_TMP/hidden.log" 2>&1; then
        fail "hiding the host's libraries did not work: $host_built still starts"
    fi
    grep -q "error while loading shared libraries" "$TEST_TMP/hidden.log" ||
        fail "$host_built failed for another reason: $(cat "$TEST_TMP/hidden.log")"
    ok "with the host's libraries hidden, the build tree's nanscope cannot start"
fi
mkdir -p "$shots"
# "default": FUSE, or the runtime's own extraction when FUSE is not usable (e.g. not root).
for mode in default extract-and-run; do
    shot="$shots/appimage-$mode.png"
    rm -f "$shot"
    env_args=()
    [ "$mode" = extract-and-run ] && env_args=(APPIMAGE_EXTRACT_AND_RUN=1)
    start=$(now_ns)
    env -u QT_QPA_PLATFORM "${env_args[@]}" "${mask[@]}" xvfb-run -a -s "-screen 0 1600x1000x24" \
        "$appimage" --screenshot "$shot" "$metadata" >"$TEST_TMP/$mode.log" 2>&1 ||
        fail "the window ($mode) failed: $(tail -20 "$TEST_TMP/$mode.log")"
    shot_ms=$(ms_since "$start")
    check_png "$shot" 1200 800 30000
    ok "window via $mode (host libraries hidden: $masked): opened, jumped, saved in $shot_ms ms"
done
if [ "$masked" = no ]; then
    skip "every check passed, but the host's Qt was not hidden (needs root and unshare -m)"
fi
