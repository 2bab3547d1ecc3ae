# SPDX-License-Identifier: GPL-3.0-or-later
# Helpers shared by the packaging tests (sourced). A test exits 77 (ctest: skipped) with the
# reason when something it needs is missing, 1 on the first failed check.

skip() {
    echo "SKIP: $*"
    exit 77
}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

ok() {
    echo "ok: $*"
}

now_ns() {
    date +%s%N
}

# Milliseconds since a now_ns value.
ms_since() {
    echo $((($(now_ns) - $1) / 1000000))
}

# A fresh temporary directory, removed when the test exits (kept with KEEP_TEST_FILES=1).
make_temp_dir() {
    TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/nanscope-packaging.XXXXXX")
    if [ "${KEEP_TEST_FILES:-0}" = 1 ]; then
        echo "note: keeping $TEST_TMP"
    else
        trap 'rm -rf "$TEST_TMP"' EXIT
    fi
}

# Records the tutorial's NaN bug with DEMO into DIR (FULL_HEALTH, every event written).
record_demo() {
    local demo=$1 dir=$2
    "$demo" --dump_dir "$dir" --dump_tensor_debug_mode FULL_HEALTH \
        --dump_circular_buffer_size -1 >"$dir.log" 2>&1 ||
        fail "the demo ($demo) failed: $(tail -5 "$dir.log")"
}

# The metadata file of the logdir DIR (tfdbg_events.<time>.<host>.metadata).
metadata_file() {
    local files=("$1"/tfdbg_events.*.metadata)
    [ -f "${files[0]}" ] || fail "no tfdbg_events.*.metadata in $1"
    echo "${files[0]}"
}

# Checks that PNG is a PNG image at least MIN_W x MIN_H pixels and MIN_BYTES long.
check_png() {
    local png=$1 min_w=$2 min_h=$3 min_bytes=$4
    [ -s "$png" ] || fail "no picture at $png"
    local info width height bytes
    info=$(file -b "$png")
    [[ $info == "PNG image data, "* ]] || fail "$png is not a PNG: $info"
    width=$(echo "$info" | sed -E 's/^PNG image data, ([0-9]+) x ([0-9]+).*/\1/')
    height=$(echo "$info" | sed -E 's/^PNG image data, ([0-9]+) x ([0-9]+).*/\2/')
    bytes=$(stat -c %s "$png")
    [ "$width" -ge "$min_w" ] && [ "$height" -ge "$min_h" ] ||
        fail "$png is $width x $height, expected at least $min_w x $min_h"
    [ "$bytes" -ge "$min_bytes" ] || fail "$png has only $bytes bytes"
    ok "$(basename "$png"): $width x $height, $bytes bytes"
}

# grep -q for the end of a pipeline: reads all of its input, so that with pipefail the writer
# never dies of SIGPIPE when the match comes early.
quiet_grep() {
    grep "$@" >/dev/null
}
