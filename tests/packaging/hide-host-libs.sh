#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command where the host's Qt, QScintilla, ICU, Graphviz, protobuf and libdw cannot be
# loaded: in a private mount namespace (run it under `unshare -m`, as root), Qt's plugin
# directory and Graphviz's plugin directory become empty and each of those library files reads as
# empty. A program that still starts brings its own copies.
#   usage: unshare -m hide-host-libs.sh COMMAND [ARG...]
set -euo pipefail

libdir=$(dirname "$(readlink -f "$(ldconfig -p | awk '$1 ~ /^libQt6Core\.so\.6$/ {print $NF; exit}')")")
[ -d "$libdir" ] || { echo "hide-host-libs: no host Qt 6 found" >&2; exit 1; }

# The mounts below must not leak into the parent namespace.
mount --make-rprivate /
for dir in "$libdir/qt6" "$libdir/graphviz"; do
    [ -d "$dir" ] && mount -t tmpfs -o ro,size=1m none "$dir"
done
count=0
for file in "$libdir"/libQt6* "$libdir"/libqscintilla2* "$libdir"/libicu* \
    "$libdir"/libgvc.so* "$libdir"/libcgraph.so* "$libdir"/libcdt.so* "$libdir"/libpathplan.so* \
    "$libdir"/libprotobuf.so* "$libdir"/libdw.so* "$libdir"/libdouble-conversion.so* \
    "$libdir"/libpcre2-16.so* "$libdir"/libmd4c.so* "$libdir"/libxcb-icccm.so* \
    "$libdir"/libxkbcommon*.so*; do
    if [ -f "$file" ] && [ ! -L "$file" ]; then
        mount --bind /dev/null "$file"
        count=$((count + 1))
    fi
done
echo "hide-host-libs: $count library files and the Qt and Graphviz plugin directories hidden"
exec "$@"
