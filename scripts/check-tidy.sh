#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs clang-tidy (configuration: .clang-tidy) on every C and C++ source file of the product —
# not tests, fuzz targets or benchmarks — with the compile commands of a build directory
# (default build/ci, made by scripts/test.sh). Fails on any finding.
#   scripts/check-tidy.sh [--since COMMIT] [BUILD_DIR]
# --since COMMIT checks only the files that could answer otherwise than at COMMIT, a commit at
# which the whole product passed: those whose source, or any header they include (the build's own
# record, ninja -t deps), changed since. Everything is checked when .clang-tidy changed, or when
# COMMIT is not in the history. CI passes the commit in .ci/tidy-baseline, since
# a whole run takes a quarter of its time; after a whole run passes, that file may move on.
set -euo pipefail
cd "$(dirname "$0")/.."

since=""
if [ "${1:-}" = --since ]; then
    [ $# -ge 2 ] || { echo "usage: $0 [--since COMMIT] [BUILD_DIR]" >&2; exit 2; }
    since=$2
    shift 2
fi
build=${1:-build/ci}
tidy=$(command -v clang-tidy-16 || true)
[ -n "$tidy" ] || { echo "check-tidy: clang-tidy-16 is missing (scripts/setup.sh installs it)" >&2; exit 2; }
[ -f "$build/compile_commands.json" ] || { echo "check-tidy: no $build/compile_commands.json; build first" >&2; exit 2; }

changed=$(mktemp)
deps=$(mktemp)
out=$(mktemp)
trap 'rm -f "$changed" "$deps" "$out"' EXIT
if [ -n "$since" ]; then
    if ! git cat-file -e "$since^{commit}" 2> /dev/null; then
        echo "check-tidy: $since is not in this history: checking everything"
        since=""
    else
        { git diff --name-only "$since" HEAD; git diff --name-only HEAD; } | sort -u > "$changed"
        if grep -q -x -F .clang-tidy "$changed"; then
            echo "check-tidy: the configuration changed since $since: checking everything"
            since=""
        else
            ninja -C "$build" -t deps > "$deps"
        fi
    fi
fi

# clang-tidy 16: the first Debian version whose parser knows std::source_location, which the
# recorder's public header uses.
# Only what this build compiles (gpu/ has a CUDA and a no-CUDA variant of some files); with
# --since, only those whose object depends on a changed file (or has no record: never built).
mapfile -t files < <(git ls-files 'app/*.cpp' 'views/*.cpp' 'widgets/*.cpp' 'model/*.cpp' \
    'format/*.cpp' 'recorder/*.cpp' 'recorder/*.c' 'gpu/*.cpp' 'summary/*.cpp' |
    python3 -c '
import json, os, shlex, sys
build, since, changed_list, deps_list = sys.argv[1:5]
commands = json.load(open(os.path.join(build, "compile_commands.json")))

def object_of(c):  # CMake 3.25 writes no "output" field: the object follows -o
    if "output" in c:
        return c["output"]
    words = shlex.split(c["command"]) if "command" in c else c.get("arguments", [])
    return words[words.index("-o") + 1] if "-o" in words[:-1] else None

objects = {}
for c in commands:
    source = os.path.realpath(os.path.join(c["directory"], c["file"]))
    output = object_of(c)
    objects[source] = os.path.realpath(os.path.join(c["directory"], output)) if output else None
deps = {}
if since:
    current = None
    for line in open(deps_list):
        if not line.startswith(" ") and ": #deps" in line:
            current = os.path.realpath(os.path.join(build, line.split(": #deps")[0]))
            deps[current] = set()
        elif line.strip() and current is not None:
            deps[current].add(os.path.realpath(os.path.join(build, line.strip())))
    changed = {os.path.realpath(l.strip()) for l in open(changed_list) if l.strip()}
for line in sys.stdin:
    source = os.path.realpath(line.strip())
    if source not in objects:
        continue
    if since:
        record = deps.get(objects[source]) if objects[source] else None
        if record is not None and source not in changed and not (record & changed):
            continue
    print(line.strip())
' "$build" "$since" "$changed" "$deps")

if [ "${#files[@]}" -eq 0 ]; then
    echo "check-tidy: nothing changed since $since that a product file includes"
    exit 0
fi
status=0
printf '%s\n' "${files[@]}" |
    xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet >"$out" 2>/dev/null || status=$?
if [ "$status" -ne 0 ] || grep -q -E '(warning|error):' "$out"; then
    grep -E -A3 '(warning|error):' "$out" >&2 || true
    echo "check-tidy: findings above (${#files[@]} files checked)" >&2
    exit 1
fi
echo "check-tidy: ${#files[@]} files${since:+ (changed since $since)}, no finding"
