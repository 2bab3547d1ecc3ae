#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The .deb files that cpack made: names, control fields (Depends from dpkg-shlibdeps), contents
# and stripped binaries; then, as root, `apt-get install` of all four, the installed app,
# report, demo, desktop integration, SDK and Python package (recording a PyTorch program where
# python3-torch is installed), and a purge.
#   usage: test-deb.sh PACKAGE_DIR VERSION SOVERSION
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
source "$here/lib.sh"

packages=$1
version=$2
soversion=$3

command -v dpkg-deb >/dev/null || skip "dpkg-deb is missing: not a Debian system"
arch=$(dpkg --print-architecture)
app_deb="$packages/nanscope_${version}_$arch.deb"
lib_deb="$packages/libnanscope-recorder${soversion}_${version}_$arch.deb"
dev_deb="$packages/libnanscope-recorder-dev_${version}_$arch.deb"
python_deb="$packages/python3-nanscope_${version}_$arch.deb"
for deb in "$app_deb" "$lib_deb" "$dev_deb" "$python_deb"; do
    [ -f "$deb" ] || fail "cpack made no $(basename "$deb") ($(ls "$packages"))"
    echo "$(basename "$deb"): $(stat -c %s "$deb") bytes"
done
make_temp_dir

# Control fields.
field() { dpkg-deb -f "$1" "$2"; }
[ "$(field "$app_deb" Package)" = nanscope ] || fail "Package of $app_deb"
[ "$(field "$app_deb" Version)" = "$version" ] || fail "Version of $app_deb"
depends=$(field "$app_deb" Depends)
echo "nanscope Depends: $depends"
for needed in libc6 libstdc++6 libqt6core6 libqt6gui6 libqt6widgets6 libqscintilla2-qt6 \
    libprotobuf32 libgvc6; do
    grep -q "\b$needed\b" <<<"$depends" || fail "nanscope does not depend on $needed"
done
lib_depends=$(field "$lib_deb" Depends)
echo "libnanscope-recorder$soversion Depends: $lib_depends"
# The recorder writes its messages itself: loaded into a program that holds a protobuf of its
# own (PyTorch's and TensorFlow's wheels), it must not bring another.
if grep -q "libprotobuf" <<<"$lib_depends"; then
    fail "the recorder library depends on protobuf: $lib_depends"
fi
if grep -qE "libqt6|libqscintilla|libgvc" <<<"$lib_depends"; then
    fail "the recorder library depends on GUI libraries: $lib_depends"
fi
dev_depends=$(field "$dev_deb" Depends)
grep -q "libnanscope-recorder$soversion (= $version)" <<<"$dev_depends" ||
    fail "the -dev package should depend on libnanscope-recorder$soversion (= $version): $dev_depends"
dpkg-deb --ctrl-tarfile "$lib_deb" | tar -t | quiet_grep shlibs || fail "the library package has no shlibs file"
python_depends=$(field "$python_deb" Depends)
echo "python3-nanscope Depends: $python_depends"
grep -q "\bpython3\b" <<<"$python_depends" || fail "python3-nanscope does not depend on python3"
if grep -q "libprotobuf" <<<"$python_depends"; then
    fail "python3-nanscope depends on protobuf: $python_depends"
fi
ok "control fields: names, versions, Depends from dpkg-shlibdeps, shlibs"

# Contents.
contents() { dpkg-deb -c "$1" | awk '{print $6}' | sed 's|^\./|/|'; }
app_files=$(contents "$app_deb")
for path in /usr/bin/nanscope /usr/bin/nanscope-report /usr/bin/nanscope-demo-mlp \
    /usr/share/applications/org.nanscope.NaNscope.desktop \
    /usr/share/metainfo/org.nanscope.NaNscope.metainfo.xml \
    /usr/share/mime/packages/org.nanscope.NaNscope.xml \
    /usr/share/icons/hicolor/scalable/apps/org.nanscope.NaNscope.svg; do
    grep -qx "$path" <<<"$app_files" || fail "nanscope has no $path"
done
for size in 16 22 24 32 48 64 128 256 512; do
    grep -qx "/usr/share/icons/hicolor/${size}x$size/apps/org.nanscope.NaNscope.png" <<<"$app_files" ||
        fail "nanscope has no ${size}x$size icon"
done
lib_files=$(contents "$lib_deb")
grep -qx "/usr/lib/.*libnanscope-recorder.so.$soversion" <<<"$lib_files" ||
    fail "the library package has no libnanscope-recorder.so.$soversion"
if grep -q "\.so$" <<<"$lib_files"; then fail "the library package holds the development link"; fi
dev_files=$(contents "$dev_deb")
for path in /usr/include/nanscope/recorder.hpp /usr/include/nanscope/recorder.h \
    /usr/include/nanscope/version.hpp; do
    grep -qx "$path" <<<"$dev_files" || fail "the -dev package has no $path"
done
for pattern in "/usr/lib/.*libnanscope-recorder.so" "/usr/lib/.*cmake/NaNscopeRecorder/NaNscopeRecorderConfig.cmake" \
    "/usr/lib/.*pkgconfig/nanscope-recorder.pc"; do
    grep -qx "$pattern" <<<"$dev_files" || fail "the -dev package has no $pattern"
done
python_files=$(contents "$python_deb")
for pattern in "/usr/lib/python3/dist-packages/nanscope/__init__.py" \
    "/usr/lib/python3/dist-packages/nanscope/torch.py" \
    "/usr/lib/python3/dist-packages/nanscope/_nanscope\..*\.so" \
    "/usr/share/nanscope/examples/debug_mnist_torch.py"; do
    grep -qx "$pattern" <<<"$python_files" || fail "python3-nanscope has no $pattern"
done
# Each package's machine-readable copyright file (DEP-5): both licences, each for its files.
for deb in "$app_deb" "$lib_deb" "$dev_deb" "$python_deb"; do
    name=$(field "$deb" Package)
    copyright=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/share/doc/$name/copyright") ||
        fail "$name has no /usr/share/doc/$name/copyright"
    head -1 <<<"$copyright" | quiet_grep "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$" ||
        fail "$name's copyright file is not DEP-5"
    grep -A2 "^Files: \*$" <<<"$copyright" | quiet_grep "^License: GPL-3.0-or-later$" ||
        fail "$name's copyright file does not put the sources under GPL-3.0-or-later"
    grep -A2 "^Files: format/\* recorder/\* summary/\* gpu/\*" <<<"$copyright" | quiet_grep "^License: Apache-2.0$" ||
        fail "$name's copyright file does not put the recorder SDK under Apache-2.0"
    for licence in GPL-3.0-or-later Apache-2.0; do
        # Once in a Files paragraph, once as the paragraph that holds the licence's text.
        [ "$(grep -c "^License: $licence$" <<<"$copyright")" -ge 2 ] ||
            fail "$name's copyright file has no $licence paragraph"
    done
done
ok "copyright files: DEP-5, GPL-3.0-or-later and Apache-2.0 (the recorder SDK) in all four"

mkdir "$TEST_TMP/x"
dpkg-deb -x "$app_deb" "$TEST_TMP/x"
dpkg-deb -x "$lib_deb" "$TEST_TMP/x"
mapfile -t binaries < <(find "$TEST_TMP/x/usr/bin" "$TEST_TMP/x/usr/lib" -type f \
    \( -path '*/bin/*' -o -name 'libnanscope-recorder.so.*' \))
[ ${#binaries[@]} -eq 4 ] || fail "expected 3 programs and the library, found ${binaries[*]}"
for binary in "${binaries[@]}"; do
    file -bL "$binary" | quiet_grep ", stripped" || fail "$(basename "$binary") is not stripped"
done
ok "contents: programs, desktop file, metainfo, MIME type, icons, library, headers, CMake and pkg-config files; stripped"

# Installing needs root; everything above did not.
[ "$(id -u)" = 0 ] || skip "not root, so the packages were checked but not installed"
command -v apt-get >/dev/null || skip "apt-get is missing, so the packages were not installed"
installed=()
for name in nanscope "libnanscope-recorder$soversion" libnanscope-recorder-dev python3-nanscope; do
    if dpkg-query -W -f='${db:Status-Status}' "$name" 2>/dev/null | quiet_grep installed; then
        installed+=("$name")
    fi
done
[ ${#installed[@]} -eq 0 ] ||
    skip "${installed[*]} already installed on this machine; not touching it"
purge() {
    apt-get purge -y -qq -o DPkg::Lock::Timeout=300 nanscope "libnanscope-recorder$soversion" \
        libnanscope-recorder-dev python3-nanscope >"$TEST_TMP/purge.log" 2>&1 ||
        cat "$TEST_TMP/purge.log" >&2
    rm -rf "$TEST_TMP"
}
trap purge EXIT
start=$(now_ns)
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 \
    "$app_deb" "$lib_deb" "$dev_deb" "$python_deb" >"$TEST_TMP/install.log" 2>&1 ||
    fail "apt-get install failed: $(tail -20 "$TEST_TMP/install.log")"
ok "apt-get install of the four packages in $(ms_since "$start") ms"

out=$(QT_QPA_PLATFORM=offscreen /usr/bin/nanscope --version 2>/dev/null) || fail "nanscope --version failed"
grep -qx "NaNscope $version" <<<"$out" || fail "nanscope --version printed: $out"
ok "/usr/bin/nanscope --version: $out"
ldd /usr/bin/nanscope | quiet_grep "libQt6Widgets.so.6 => /lib\|libQt6Widgets.so.6 => /usr/lib" ||
    fail "the installed nanscope does not use the system's Qt"
logdir=$TEST_TMP/logdir
record_demo /usr/bin/nanscope-demo-mlp "$logdir"
status=0
/usr/bin/nanscope-report "$logdir" >"$TEST_TMP/report.txt" || status=$?
[ "$status" = 1 ] || fail "nanscope-report exited $status, expected 1 (alerts found)"
grep -q "Log" "$TEST_TMP/report.txt" || fail "the report does not name the tutorial's Log op"
/usr/bin/nanscope-report --json "$logdir" >"$TEST_TMP/report.json" || true
grep -q "\"tensorflow_version\": \"NaNscope $version\"" "$TEST_TMP/report.json" ||
    fail "the report does not name NaNscope $version as the writer"
ok "installed nanscope-demo-mlp recorded the NaN bug; nanscope-report found it (exit 1, Log op)"

grep -q "application/x-tfdbg2-metadata:tfdbg_events\.\*\.metadata" /usr/share/mime/globs2 ||
    fail "the MIME type is not in the system's MIME database (shared-mime-info trigger)"
ok "the shared-mime-info trigger registered application/x-tfdbg2-metadata"
[ "$(pkg-config --modversion nanscope-recorder)" = "$version" ] || fail "pkg-config nanscope-recorder"
ldconfig -p | quiet_grep "libnanscope-recorder.so.$soversion " || fail "ldconfig does not know the library"
ok "installed SDK: pkg-config $version, ldconfig has libnanscope-recorder.so.$soversion"

(cd "$TEST_TMP" && /usr/bin/python3 -c "import nanscope; assert nanscope.__version__ == '$version'") ||
    fail "the installed Python package does not import, or has another version"
if (cd "$TEST_TMP" && /usr/bin/python3 -c "import torch") >/dev/null 2>&1; then
    torch_logdir=$TEST_TMP/torch-logdir
    (cd "$TEST_TMP" && /usr/bin/python3 -c "
import torch, nanscope.torch
with nanscope.torch.enable_dump_debug_info('$torch_logdir'):
    torch.log(torch.zeros(3))
") || fail "the installed nanscope.torch did not record"
    status=0
    /usr/bin/nanscope-report "$torch_logdir" >"$TEST_TMP/torch-report.txt" || status=$?
    [ "$status" = 1 ] || fail "nanscope-report on the PyTorch logdir exited $status, expected 1"
    grep -q "aten::log" "$TEST_TMP/torch-report.txt" || fail "the report does not name aten::log"
    ok "installed python3-nanscope recorded a PyTorch program; nanscope-report found aten::log"
else
    ok "installed python3-nanscope imports (python3-torch is not installed: no recording)"
fi

apt-get purge -y -qq -o DPkg::Lock::Timeout=300 nanscope "libnanscope-recorder$soversion" \
    libnanscope-recorder-dev python3-nanscope >"$TEST_TMP/purge.log" 2>&1 ||
    fail "purge: $(cat "$TEST_TMP/purge.log")"
trap 'rm -rf "$TEST_TMP"' EXIT
[ ! -e /usr/bin/nanscope ] && [ ! -e /usr/share/applications/org.nanscope.NaNscope.desktop ] ||
    fail "files left after the purge"
ok "purged"
