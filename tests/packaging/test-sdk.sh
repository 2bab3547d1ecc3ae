#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The recorder SDK as a user gets it: `cmake --install` of the recorder and recorder_dev
# components into a temporary prefix; the library's soname, dependencies and exported symbols
# (the public API only); a separate CMake project (find_package(NaNscopeRecorder VERSION)) and
# plain compiler calls with `pkg-config --cflags --libs nanscope-recorder`, in C++ and in C; the
# programs run and write logdirs that nanscope-report reads.
#   usage: test-sdk.sh BUILD_DIR VERSION SOVERSION CLIENT_SOURCE_DIR NANSCOPE_REPORT
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
source "$here/lib.sh"

build=$1
version=$2
soversion=$3
client_src=$4
report=$5

make_temp_dir
prefix=$TEST_TMP/prefix
for component in recorder recorder_dev; do
    cmake --install "$build" --prefix "$prefix" --component "$component" >/dev/null ||
        fail "cmake --install --component $component"
done
libdir=$(dirname "$(find "$prefix" -name "libnanscope-recorder.so.$soversion" | head -1)")
[ -d "$libdir" ] || fail "no libnanscope-recorder.so.$soversion under $prefix"
for path in "$libdir/libnanscope-recorder.so" "$libdir/libnanscope-recorder.so.$version" \
    "$libdir/cmake/NaNscopeRecorder/NaNscopeRecorderConfig.cmake" \
    "$libdir/cmake/NaNscopeRecorder/NaNscopeRecorderConfigVersion.cmake" \
    "$libdir/cmake/NaNscopeRecorder/NaNscopeRecorderTargets.cmake" \
    "$libdir/pkgconfig/nanscope-recorder.pc"; do
    [ -e "$path" ] || fail "not installed: ${path#"$prefix"/}"
done
for header in dtype.hpp export.h recorder.h recorder.hpp status.hpp summary.hpp \
    tensordebugmode.hpp tensorview.hpp version.hpp; do
    [ -f "$prefix/include/nanscope/$header" ] || fail "not installed: include/nanscope/$header"
done
ok "installed: library, namelink, headers, CMake package and pkg-config file"

# The library: soname, run-time dependencies, and nothing exported but the API.
lib="$libdir/libnanscope-recorder.so.$version"
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libnanscope-recorder.so.$soversion" ] || fail "soname is $soname"
needed=$(readelf -d "$lib" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
for dependency in $needed; do
    case "$dependency" in
    libprotobuf.so.* | libdw.so.* | libstdc++.so.* | libm.so.* | libgcc_s.so.* | libc.so.* | \
        ld-linux*.so.* | libdl.so.* | librt.so.* | libpthread.so.*) ;;
    *) fail "unexpected run-time dependency $dependency" ;;
    esac
done
ok "soname $soname; needs $needed"
# Besides the API, a C++ library exports the standard library's template instantiations it made
# (the std namespace has default visibility) and the guard variables of function-local statics.
symbols=$(nm -D --defined-only "$lib" | awk '{print $3}' | c++filt)
api=$(grep -E '^(nanscope::|nanscope_)' <<<"$symbols" || true)
others=$(grep -vE '^(nanscope::|nanscope_)' <<<"$symbols" || true)
leaked=$(grep -vE 'std::|^guard variable for ' <<<"$others" || true)
[ -z "$leaked" ] || fail "symbols outside the API are exported: $(head -5 <<<"$leaked")"
internal=$(grep -E '^((typeinfo |typeinfo name |vtable )for )?(nanscope::(tfdbg|format|gpu|detail)::|google::)' \
    <<<"$symbols" || true)
[ -z "$internal" ] || fail "internal or protobuf symbols are exported: $(head -5 <<<"$internal")"
for function in "nanscope::Recorder::open(" "nanscope::recorderVersion()" nanscope_open \
    nanscope_record_trace "nanscope::countHealth("; do
    grep -qF "$function" <<<"$api" || fail "$function is not exported"
done
ok "exported: $(wc -l <<<"$api") symbols of the C++ and C API, $(wc -l <<<"$others") standard library instantiations"

# A separate CMake project against the installed package.
cmake -S "$client_src" -B "$TEST_TMP/client" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" -DNANSCOPE_EXPECTED_VERSION="$version" \
    >"$TEST_TMP/configure.log" 2>&1 || fail "configuring the client: $(tail -20 "$TEST_TMP/configure.log")"
cmake --build "$TEST_TMP/client" >"$TEST_TMP/build.log" 2>&1 ||
    fail "building the client: $(tail -20 "$TEST_TMP/build.log")"
ok "find_package(NaNscopeRecorder $version) and NaNscope::recorder: C++ and C clients built"
if cmake -S "$client_src" -B "$TEST_TMP/client-future" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DNANSCOPE_EXPECTED_VERSION=99.0 >/dev/null 2>&1; then
    fail "find_package(NaNscopeRecorder 99.0) accepted version $version"
fi
ok "find_package(NaNscopeRecorder 99.0) is refused"

# The same with pkg-config and the compilers directly.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
[ "$(pkg-config --modversion nanscope-recorder)" = "$version" ] || fail "pkg-config --modversion"
read -r -a flags <<<"$(pkg-config --cflags --libs nanscope-recorder)"
c++ -std=c++20 -Wall -Wextra -Wno-missing-field-initializers -Werror "$client_src/client.cpp" "${flags[@]}" -Wl,-rpath,"$libdir" \
    -o "$TEST_TMP/pc_client_cpp" || fail "c++ with pkg-config flags"
cc -std=c99 -Wall -Wextra -Werror "$client_src/client.c" "${flags[@]}" -Wl,-rpath,"$libdir" \
    -o "$TEST_TMP/pc_client_c" || fail "cc with pkg-config flags"
ok "pkg-config --cflags --libs nanscope-recorder: ${flags[*]}"

# Every client writes a logdir that the report reads: one -inf alert on Log, written by this version.
for client in client/client_cpp client/client_c pc_client_cpp pc_client_c; do
    logdir="$TEST_TMP/logdir-$(basename "$client")"
    out=$(LD_LIBRARY_PATH="$libdir" "$TEST_TMP/$client" "$logdir") || fail "$client failed: $out"
    [ "$out" = "NaNscope $version" ] || fail "$client printed $out"
    ldd "$TEST_TMP/$client" | quiet_grep "libnanscope-recorder.so.$soversion => $libdir" ||
        [ "$(LD_LIBRARY_PATH="$libdir" ldd "$TEST_TMP/$client" | grep -c "=> $libdir")" -ge 1 ] ||
        fail "$client does not use the installed library"
    status=0
    "$report" --json "$logdir" >"$logdir.json" || status=$?
    [ "$status" = 1 ] || fail "nanscope-report on $client's logdir exited $status, expected 1"
    grep -q "\"tensorflow_version\": \"NaNscope $version\"" "$logdir.json" ||
        fail "$client's logdir does not name NaNscope $version"
    grep -q '"op_name": "Log"' "$logdir.json" || fail "$client's alert is not on Log"
done
ok "the four clients ran; nanscope-report found their -inf alert on Log"
