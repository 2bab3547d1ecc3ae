#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What can be checked on Linux of the macOS and Windows packaging: the .msi description
# (packaging/windows/nanscope.wxs, configured by CMake) compiled by wixl against a stand-in of
# the staged Windows install and read back with msitools; Info.plist.in is well-formed XML with
# the bundle keys; the CI workflows are valid YAML with jobs that run cpack.
#   usage: test-other-platforms.sh SOURCE_DIR BUILD_DIR VERSION ICON_DIR APP_ID
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
source "$here/lib.sh"

src=$1
build=$2
version=$3
icons=$4
id=$5
make_temp_dir
missing=()

# The .msi, from a stand-in stage shaped like windeployqt's output.
if command -v wixl >/dev/null && command -v wixl-heat >/dev/null && command -v msiinfo >/dev/null; then
    stage=$TEST_TMP/stage
    mkdir -p "$stage/bin/platforms" "$stage/bin/styles"
    for file in bin/nanscope.exe bin/nanscope-report.exe bin/nanscope-demo-mlp.exe bin/Qt6Core.dll \
        bin/Qt6Gui.dll bin/Qt6Widgets.dll bin/qscintilla2_qt6.dll bin/platforms/qwindows.dll \
        bin/styles/qwindowsvistastyle.dll; do
        echo "stand-in for $file" >"$stage/$file"
    done
    printf '[Paths]\nPrefix = ..\n' >"$stage/bin/qt.conf"
    cp "$icons/$id.ico" "$stage/$id.ico"
    (cd "$stage" && find . -type f ! -name "$id.ico" | sed 's|^\./||' | sort) |
        wixl-heat --directory-ref INSTALLDIR --component-group AppFiles --var var.StageDir \
            -p "" --win64 >"$TEST_TMP/files.wxs" || fail "wixl-heat"
    # wixl resolves sources relative to the working directory.
    cp "$build/packaging/windows/nanscope.wxs" "$TEST_TMP/nanscope.wxs"
    (cd "$TEST_TMP" && wixl -a x64 -D StageDir=stage -D Win64=yes -o NaNscope.msi nanscope.wxs files.wxs) \
        >"$TEST_TMP/wixl.log" 2>&1 || fail "wixl: $(cat "$TEST_TMP/wixl.log")"
    msiinfo export "$TEST_TMP/NaNscope.msi" Property | quiet_grep -P "^ProductVersion\t$version\r?$" ||
        fail "the .msi's ProductVersion is not $version"
    msiinfo export "$TEST_TMP/NaNscope.msi" Property | quiet_grep "^UpgradeCode" || fail "no UpgradeCode"
    files=$(msiinfo export "$TEST_TMP/NaNscope.msi" File | grep -c "nanscope\|Qt6\|qwindows\|qt.conf\|qscintilla" || true)
    [ "$files" -ge 10 ] || fail "the .msi holds $files of the stage's 10 files"
    msiinfo export "$TEST_TMP/NaNscope.msi" Shortcut | quiet_grep "NaNscope" || fail "no Start menu shortcut"
    ok "wixl built an .msi from nanscope.wxs: ProductVersion $version, $files files, a shortcut"
else
    missing+=("wixl and msitools")
fi

# macOS bundle template.
plist="$src/packaging/macos/Info.plist.in"
if command -v xmllint >/dev/null; then
    xmllint --noout "$plist" || fail "$plist is not well-formed"
else
    missing+=("xmllint (libxml2-utils)")
fi
for key in CFBundleExecutable CFBundleIdentifier CFBundleShortVersionString CFBundleIconFile \
    NSHighResolutionCapable; do
    grep -q "<key>$key</key>" "$plist" || fail "Info.plist.in has no $key"
done
ok "Info.plist.in: well-formed, with the bundle keys"

# CI workflows.
if python3 -c 'import yaml' 2>/dev/null; then
    python3 - "$src/.github/workflows" <<'EOF' || fail "workflow check"
import pathlib, sys, yaml
files = sorted(pathlib.Path(sys.argv[1]).glob("*.yml"))
assert files, "no workflows"
for path in files:
    doc = yaml.safe_load(path.read_text())
    # YAML 1.1 reads the key "on" as True.
    assert "on" in doc or True in doc, f"{path.name}: no trigger"
    jobs = doc.get("jobs")
    assert jobs, f"{path.name}: no jobs"
    for name, job in jobs.items():
        assert "runs-on" in job, f"{path.name}: job {name} has no runs-on"
        steps = job.get("steps") or []
        assert steps, f"{path.name}: job {name} has no steps"
        text = yaml.safe_dump(steps)
        assert "cpack" in text or "--workflow" in text, f"{path.name}: job {name} makes no package"
    print(f"ok: {path.name}: valid YAML, jobs {', '.join(jobs)}")
EOF
else
    missing+=("python3-yaml")
fi

[ ${#missing[@]} -eq 0 ] || skip "the other checks passed; not checked for lack of ${missing[*]}"
