#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs clang-tidy (configuration: .clang-tidy) on every C and C++ source file of the product —
# not tests, fuzz targets or benchmarks — with the compile commands of a build directory
# (default build/ci, made by scripts/test.sh). Fails on any finding.
#   scripts/check-tidy.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build/ci}
tidy=$(command -v clang-tidy-16 || true)
[ -n "$tidy" ] || { echo "check-tidy: clang-tidy-16 is missing (scripts/setup.sh installs it)" >&2; exit 2; }
[ -f "$build/compile_commands.json" ] || { echo "check-tidy: no $build/compile_commands.json; build first" >&2; exit 2; }

# clang-tidy 16: the first Debian version whose parser knows std::source_location, which the
# recorder's public header uses.
# Only what this build compiles (gpu/ has a CUDA and a no-CUDA variant of some files).
mapfile -t files < <(git ls-files 'app/*.cpp' 'views/*.cpp' 'widgets/*.cpp' 'model/*.cpp' \
    'format/*.cpp' 'recorder/*.cpp' 'recorder/*.c' 'gpu/*.cpp' 'summary/*.cpp' |
    python3 -c '
import json, os, sys
compiled = {os.path.realpath(c["file"]) for c in json.load(open(sys.argv[1]))}
for line in sys.stdin:
    if os.path.realpath(line.strip()) in compiled:
        print(line.strip())
' "$build/compile_commands.json")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
printf '%s\n' "${files[@]}" |
    xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet >"$out" 2>/dev/null || status=$?
if [ "$status" -ne 0 ] || grep -q -E '(warning|error):' "$out"; then
    grep -E -A3 '(warning|error):' "$out" >&2 || true
    echo "check-tidy: findings above (${#files[@]} files checked)" >&2
    exit 1
fi
echo "check-tidy: ${#files[@]} files, no finding"
