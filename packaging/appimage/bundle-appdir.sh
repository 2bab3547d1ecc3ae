#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Turns an installed tree (DESTDIR=APPDIR, prefix /usr) into a self-contained AppDir: the Qt
# plugins the app needs, every library the programs and plugins need that a desktop Linux
# system cannot be assumed to have, Graphviz's layout plugin, run paths relative to each file,
# qt.conf, the licence texts, and the AppImage's top-level AppRun, .desktop file and icon.
#
#   usage: bundle-appdir.sh APPDIR DESKTOP_ID
#
# Needs ldd (libc-bin), objdump (binutils), patchelf, and qtpaths6 or QT_PLUGINS_DIR.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 APPDIR DESKTOP_ID" >&2
    exit 2
fi
appdir=$(readlink -f "$1")
id=$2
here=$(dirname "$(readlink -f "$0")")
bindir=$appdir/usr/bin
libdir=$appdir/usr/lib
plugindir=$appdir/usr/plugins

for tool in ldd objdump patchelf; do
    command -v "$tool" >/dev/null || { echo "error: $tool is missing (see scripts/setup.sh)" >&2; exit 1; }
done
[ -x "$bindir/nanscope" ] || { echo "error: $bindir/nanscope is missing" >&2; exit 1; }

qt_plugins=${QT_PLUGINS_DIR:-}
if [ -z "$qt_plugins" ]; then
    qtpaths=$(command -v qtpaths6 || command -v qtpaths || true)
    [ -n "$qtpaths" ] || { echo "error: neither QT_PLUGINS_DIR nor qtpaths6 is there" >&2; exit 1; }
    qt_plugins=$("$qtpaths" --query QT_INSTALL_PLUGINS)
fi
[ -d "$qt_plugins/platforms" ] || { echo "error: no Qt plugins in $qt_plugins" >&2; exit 1; }

mkdir -p "$libdir" "$plugindir"

# Qt plugins: X11 and the headless platforms, GLX/EGL integration for xcb, input methods,
# image formats and the SVG icon engine.
for plugin in platforms/libqxcb.so platforms/libqoffscreen.so platforms/libqminimal.so \
    xcbglintegrations platforminputcontexts imageformats iconengines; do
    if [ ! -e "$qt_plugins/$plugin" ]; then
        echo "note: Qt plugin $plugin is not installed here; not bundled" >&2
        continue
    fi
    mkdir -p "$plugindir/$(dirname "$plugin")"
    cp -a "$qt_plugins/$plugin" "$plugindir/$(dirname "$plugin")/"
done

# Graphviz loads its layout engines as plugins listed in config6a; bundle the two that the
# graph panels use (core and dot) with a config that lists only them. AppRun sets GVBINDIR.
graphviz_needed=$(objdump -p "$bindir/nanscope" | awk '$1 == "NEEDED" && $2 ~ /^libgvc\.so/ {print $2}')
if [ -n "$graphviz_needed" ]; then
    gvc=$(ldd "$bindir/nanscope" | awk -v lib="$graphviz_needed" '$1 == lib {print $3}')
    gvdir=$(dirname "$gvc")/graphviz
    [ -f "$gvdir/config6a" ] || { echo "error: no Graphviz plugin config in $gvdir" >&2; exit 1; }
    mkdir -p "$libdir/graphviz"
    awk '
        /^libgvplugin_(core|dot_layout)\.so/ { keep = 1 }
        /^libgvplugin_/ && !/^libgvplugin_(core|dot_layout)\.so/ { keep = 0 }
        keep { print }
    ' "$gvdir/config6a" >"$libdir/graphviz/config6a"
    for name in $(awk '/^libgvplugin_/ {print $1}' "$libdir/graphviz/config6a"); do
        cp -L "$gvdir/$name" "$libdir/graphviz/$name"
    done
fi

# Libraries every desktop system that can run the app has, or that must come from the host
# because they talk to its drivers, display server or configuration: never bundled, and their
# own dependencies are not followed.
is_host_library() {
    case "$1" in
    ld-linux*.so.* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.*) return 0 ;;
    libresolv.so.* | libutil.so.* | libanl.so.* | libmvec.so.* | libnss_* | libthread_db.so.*) return 0 ;;
    libBrokenLocale.so.* | libstdc++.so.* | libgcc_s.so.*) return 0 ;;
    libGL.so.* | libEGL.so.* | libGLX.so.* | libGLdispatch.so.* | libOpenGL.so.* | libglapi.so.*) return 0 ;;
    libgbm.so.* | libdrm.so.* | libvulkan.so.* | libwayland-client.so.* | libwayland-*.so.*) return 0 ;;
    libX11.so.* | libX11-xcb.so.* | libxcb.so.* | libxcb-dri2.so.* | libxcb-dri3.so.*) return 0 ;;
    libICE.so.* | libSM.so.*) return 0 ;;
    libfontconfig.so.* | libfreetype.so.* | libharfbuzz.so.* | libfribidi.so.*) return 0 ;;
    libz.so.* | libexpat.so.* | libuuid.so.* | libgpg-error.so.* | libcom_err.so.*) return 0 ;;
    libasound.so.* | libusb-1.0.so.* | libjack.so.* | libpipewire-0.3.so.* | libgmp.so.*) return 0 ;;
    esac
    return 1
}

# Copy the dependency closure breadth-first, following DT_NEEDED entries and resolving each
# name the way the host's loader does; host libraries end the walk.
declare -A seen=()
mapfile -t queue < <(find "$bindir" "$plugindir" "$libdir" -type f \( -perm -u+x -o -name '*.so*' \) |
    while read -r f; do objdump -p "$f" >/dev/null 2>&1 && echo "$f"; done)
while [ ${#queue[@]} -gt 0 ]; do
    file=${queue[0]}
    queue=("${queue[@]:1}")
    declare -A found=()
    while read -r name arrow path _; do
        [ "$arrow" = "=>" ] && found[$name]=$path
    done < <(ldd "$file" 2>/dev/null || true)
    for name in $(objdump -p "$file" | awk '$1 == "NEEDED" {print $2}'); do
        is_host_library "$name" && continue
        [ -n "${seen[$name]:-}" ] && continue
        seen[$name]=1
        [ -e "$libdir/$name" ] && continue
        source=${found[$name]:-}
        if [ -z "$source" ] || [ "$source" = "not" ]; then
            echo "error: $name, needed by ${file#"$appdir"/}, is not found on this system" >&2
            exit 1
        fi
        cp -L "$source" "$libdir/$name"
        chmod 0644 "$libdir/$name"
        queue+=("$libdir/$name")
    done
    unset found
done

# Each file finds the bundled libraries relative to itself.
for exe in "$bindir"/*; do
    [ -f "$exe" ] && objdump -p "$exe" >/dev/null 2>&1 && patchelf --set-rpath '$ORIGIN/../lib' "$exe"
done
for lib in "$libdir"/*.so*; do
    patchelf --set-rpath '$ORIGIN' "$lib"
done
find "$plugindir" -name '*.so' -exec patchelf --set-rpath '$ORIGIN/../../lib' {} +
if [ -d "$libdir/graphviz" ]; then
    find "$libdir/graphviz" -name '*.so*' -exec patchelf --set-rpath '$ORIGIN/..' {} +
fi

# Qt looks next to the executable for qt.conf; with it, the bundled QtCore never searches the
# host's Qt directories for plugins.
cat >"$bindir/qt.conf" <<'EOF'
[Paths]
Prefix = ..
Libraries = lib
Plugins = plugins
Translations = translations
EOF

# Licences: the AppImage runs on systems without Debian's /usr/share/common-licenses, so it
# carries NaNscope's licence texts, the list of third-party licences, and the Debian copyright
# file of each package a bundled library comes from.
source_dir=$(readlink -f "$here/../..")
licences=$appdir/usr/share/licenses/nanscope
mkdir -p "$licences"
cp "$source_dir/LICENSE" "$source_dir/packaging/notice.txt" "$licences/"
cp "$source_dir"/LICENSES/*.txt "$licences/"
if command -v dpkg-query >/dev/null; then
    declare -A copied=()
    while read -r lib; do
        # The host's path of the bundled file, then the package that owns it.
        # (awk reads to the end: an early exit would kill the writer with SIGPIPE under pipefail)
        host_path=$(ldconfig -p 2>/dev/null | awk -v n="$(basename "$lib")" '$1 == n && !p {print $NF; p = 1}')
        [ -n "$host_path" ] || continue
        real=$(readlink -f "$host_path")
        # dpkg knows a file under /usr/lib or, on merged-/usr systems, under /lib.
        package=$( (dpkg-query -S "$real" 2>/dev/null || dpkg-query -S "${real#/usr}" 2>/dev/null || true) |
            awk -F: 'NR == 1 {print $1}')
        [ -n "$package" ] && [ -z "${copied[$package]:-}" ] || continue
        copied[$package]=1
        if [ -f "/usr/share/doc/$package/copyright" ]; then
            mkdir -p "$appdir/usr/share/doc/$package"
            cp "/usr/share/doc/$package/copyright" "$appdir/usr/share/doc/$package/copyright"
        fi
    done < <(find "$libdir" -maxdepth 1 -name '*.so*' -type f)
    echo "AppDir: the Debian copyright files of ${#copied[@]} packages"
fi

# The AppImage's top level: AppRun, the desktop file, its icon and .DirIcon.
install -m 0755 "$here/AppRun" "$appdir/AppRun"
cp "$appdir/usr/share/applications/$id.desktop" "$appdir/$id.desktop"
cp "$appdir/usr/share/icons/hicolor/256x256/apps/$id.png" "$appdir/$id.png"
ln -sf "$id.png" "$appdir/.DirIcon"

echo "AppDir: $(find "$libdir" -maxdepth 1 -name '*.so*' | wc -l) libraries and" \
    "$(find "$plugindir" -name '*.so' | wc -l) Qt plugins bundled"
