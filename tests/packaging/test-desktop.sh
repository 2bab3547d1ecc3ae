#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Desktop integration files: the .desktop file (desktop-file-validate), the AppStream metadata
# (appstreamcli validate --no-net), the MIME type (compiled by update-mime-database; its glob
# matches the metadata file the recorder really writes, and the .desktop file opens it with %f),
# and the icons rendered at build time (every PNG size, .ico and .icns).
#   usage: test-desktop.sh SOURCE_DIR BUILD_DIR APP_ID DEMO
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
source "$here/lib.sh"

src=$1
build=$2
id=$3
demo=$4
desktop="$src/resources/$id.desktop"
mime="$src/resources/$id.mime.xml"
metainfo="$build/resources/$id.metainfo.xml"
icons="$build/resources/icons"
make_temp_dir
missing=()

if command -v desktop-file-validate >/dev/null; then
    out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $out"
    [ -z "$out" ] || fail "desktop-file-validate has remarks: $out"
    ok "desktop-file-validate: no errors, no warnings"
else
    missing+=("desktop-file-validate (desktop-file-utils)")
fi
grep -qx "Exec=nanscope %f" "$desktop" || fail "the .desktop file does not pass the file (Exec=nanscope %f)"
grep -qx "Icon=$id" "$desktop" || fail "the .desktop file's icon is not $id"

if command -v appstreamcli >/dev/null; then
    out=$(appstreamcli validate --no-net "$metainfo" 2>&1) || fail "appstreamcli validate: $out"
    ok "appstreamcli validate --no-net: $(tail -1 <<<"$out")"
else
    missing+=("appstreamcli (appstream)")
fi
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" ||
    fail "the metainfo does not launch $id.desktop"
grep -q "<project_license>GPL-3.0-or-later</project_license>" "$metainfo" ||
    fail "the metainfo does not give the app's licence (GPL-3.0-or-later)"

# The MIME type: well-formed, compiled, and the .desktop file handles it.
type=$(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' "$mime")
[ "$type" = application/x-tfdbg2-metadata ] || fail "unexpected MIME type $type"
grep -qx "MimeType=$type;" "$desktop" || fail "the .desktop file does not handle $type"
if command -v update-mime-database >/dev/null; then
    mkdir -p "$TEST_TMP/mime/packages"
    cp "$mime" "$TEST_TMP/mime/packages/$id.xml"
    out=$(XDG_DATA_HOME="$TEST_TMP" XDG_DATA_DIRS="$TEST_TMP" update-mime-database "$TEST_TMP/mime" 2>&1) ||
        fail "update-mime-database: $out"
    [ -z "$out" ] || fail "update-mime-database has remarks: $out"
    glob=$(awk -F: -v t="$type" '$2 == t {print $3}' "$TEST_TMP/mime/globs2")
    [ -n "$glob" ] || fail "update-mime-database made no glob for $type"
    [ -f "$TEST_TMP/mime/application/x-tfdbg2-metadata.xml" ] || fail "no compiled $type entry"
    ok "update-mime-database compiled $type with the glob $glob"
else
    missing+=("update-mime-database (shared-mime-info)")
    glob=$(sed -n 's/.*<glob pattern="\([^"]*\)".*/\1/p' "$mime")
fi
# The glob matches what the recorder writes, and no other file of the logdir.
record_demo "$demo" "$TEST_TMP/logdir"
matched=0
for file in "$TEST_TMP"/logdir/*; do
    name=$(basename "$file")
    # shellcheck disable=SC2053 # the glob is meant to match
    if [[ $name == $glob ]]; then
        [[ $name == *.metadata ]] || fail "the glob $glob also matches $name"
        matched=$((matched + 1))
    fi
done
[ "$matched" = 1 ] || fail "the glob $glob matches $matched of the logdir's files, not 1"
ok "the glob matches the recorder's $(basename "$(metadata_file "$TEST_TMP/logdir")") only"

# Icons rendered at build time.
for size in 16 22 24 32 48 64 128 256 512; do
    check_png "$icons/hicolor/${size}x$size/apps/$id.png" "$size" "$size" 100 >/dev/null
    file -b "$icons/hicolor/${size}x$size/apps/$id.png" | quiet_grep "$size x $size" ||
        fail "the ${size}x$size icon has another size"
done
file -b "$icons/$id.ico" | quiet_grep "MS Windows icon resource - 6 icons" || fail "$id.ico: $(file -b "$icons/$id.ico")"
file -b "$icons/$id.icns" | quiet_grep "Mac OS X icon" || fail "$id.icns: $(file -b "$icons/$id.icns")"
ok "icons: PNG 16..512, .ico with 6 sizes, .icns"

[ ${#missing[@]} -eq 0 ] || skip "the other checks passed; not checked for lack of ${missing[*]}"
