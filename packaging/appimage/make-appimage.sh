#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Packs an AppDir into a type-2 AppImage: the runtime followed by a squashfs image of the AppDir.
# The image is reproducible: fixed timestamps, root-owned files, no extended attributes, and
# zstd, which the runtime reads.
#
#   usage: make-appimage.sh RUNTIME APPDIR OUTPUT
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 RUNTIME APPDIR OUTPUT" >&2
    exit 2
fi
runtime=$1
appdir=$2
output=$3

command -v mksquashfs >/dev/null || { echo "error: mksquashfs is missing (squashfs-tools)" >&2; exit 1; }
[ -f "$runtime" ] || { echo "error: no AppImage runtime at $runtime" >&2; exit 1; }
magic=$(od -An -tx1 -j8 -N3 "$runtime" | tr -d ' \n')
[ "$magic" = 414902 ] || { echo "error: $runtime lacks the AppImage type-2 magic (got $magic)" >&2; exit 1; }
for entry in AppRun .DirIcon; do
    [ -e "$appdir/$entry" ] || { echo "error: the AppDir has no $entry" >&2; exit 1; }
done
desktop_files=$(find "$appdir" -maxdepth 1 -name '*.desktop' | wc -l)
[ "$desktop_files" -eq 1 ] || { echo "error: the AppDir needs one top-level .desktop file, has $desktop_files" >&2; exit 1; }

image=$(mktemp "${TMPDIR:-/tmp}/appimage-payload.XXXXXX")
trap 'rm -f "$image"' EXIT
mksquashfs "$appdir" "$image" -noappend -root-owned -no-xattrs -comp zstd -b 1M \
    -mkfs-time 0 -all-time 0 -quiet -no-progress >/dev/null
cat "$runtime" "$image" >"$output.part"
chmod 0755 "$output.part"
mv -f "$output.part" "$output"
echo "$output: $(stat -c %s "$output") bytes; the image starts at byte $(stat -c %s "$runtime")"
