#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Which files `scripts/check-tidy.sh --since COMMIT` hands to clang-tidy, in a scratch repository:
# a small product tree, a build directory whose compile commands and ninja dependency records are
# written here, and stand-ins for clang-tidy (it records the files it is given) and ninja (it
# prints the records). A wrong choice would only check more or fewer files in CI, and nothing else
# would show it.
#   tests/scripts/test-check-tidy.sh SOURCE_DIR
set -euo pipefail

source_dir=$(cd "${1:?usage: $0 SOURCE_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
build=$repo/build/ci
mkdir -p "$repo/scripts" "$repo/model/src" "$repo/recorder/src" "$repo/tests" "$build" "$work/bin"
cp "$source_dir/scripts/check-tidy.sh" "$repo/scripts/"

# Two product files that include a shared header, one that includes nothing of ours, one never
# built (no dependency record), and a test file (never checked).
echo '#pragma once' > "$repo/model/src/shared.hpp"
echo '#pragma once' > "$repo/recorder/src/own.hpp"
printf '#include "shared.hpp"\n' > "$repo/model/src/reader.cpp"
printf '#include "shared.hpp"\n' > "$repo/model/src/index.cpp"
printf '#include "own.hpp"\n' > "$repo/recorder/src/writer.cpp"
echo 'int fresh;' > "$repo/recorder/src/fresh.cpp"
echo 'int test;' > "$repo/tests/test.cpp"
echo 'Checks: "-*"' > "$repo/.clang-tidy"
echo 'build/' > "$repo/.gitignore"

products=(model/src/reader.cpp model/src/index.cpp recorder/src/writer.cpp recorder/src/fresh.cpp)
python3 - "$repo" "${products[@]}" tests/test.cpp <<'EOF'
import json, os, sys
repo, files = sys.argv[1], sys.argv[2:]
build = os.path.join(repo, "build", "ci")
commands = [{"directory": build, "file": os.path.join(repo, f),
             "command": f"g++ -c {os.path.join(repo, f)} -o {f}.o"} for f in files]
json.dump(commands, open(os.path.join(build, "compile_commands.json"), "w"))
EOF
# ninja -t deps as ninja prints it: an object, then its inputs indented, absolute or relative to
# the build directory.
cat > "$work/deps.txt" <<EOF
model/src/reader.cpp.o: #deps 2, deps mtime 1 (VALID)
    ../../model/src/reader.cpp
    ../../model/src/shared.hpp

model/src/index.cpp.o: #deps 2, deps mtime 1 (VALID)
    $repo/model/src/index.cpp
    $repo/model/src/shared.hpp

recorder/src/writer.cpp.o: #deps 2, deps mtime 1 (VALID)
    $repo/recorder/src/writer.cpp
    ../../recorder/src/own.hpp

EOF
cat > "$work/bin/ninja" <<EOF
#!/bin/sh
cat "$work/deps.txt"
EOF
cat > "$work/bin/clang-tidy-16" <<EOF
#!/bin/sh
for arg; do case "\$arg" in *.cpp) echo "\$arg" >> "$work/checked";; esac; done
EOF
chmod +x "$work/bin/ninja" "$work/bin/clang-tidy-16"
export PATH="$work/bin:$PATH"

git -C "$repo" init -q
git -C "$repo" -c user.name=test -c user.email=test@example.org add -A
git -C "$repo" -c user.name=test -c user.email=test@example.org commit -q -m baseline
baseline=$(git -C "$repo" rev-parse HEAD)

failures=0
# expect DESCRIPTION ARGS... -- FILES...: the files check-tidy hands to clang-tidy, in any order.
expect() {
    local description=$1
    shift
    local args=()
    while [ "$1" != -- ]; do args+=("$1"); shift; done
    shift
    rm -f "$work/checked"
    bash "$repo/scripts/check-tidy.sh" "${args[@]}" > "$work/output" 2>&1 ||
        { echo "FAIL: $description: check-tidy exited non-zero"; cat "$work/output"; failures=$((failures + 1)); return; }
    local got want
    got=$(sed "s|^$repo/||" "$work/checked" 2> /dev/null | sort | tr '\n' ' ')
    want=$(printf '%s\n' "$@" | sed '/^$/d' | sort | tr '\n' ' ')
    if [ "$got" = "$want" ]; then
        echo "ok: $description"
    else
        echo "FAIL: $description: checked [$got], expected [$want]"
        cat "$work/output"
        failures=$((failures + 1))
    fi
}

expect "no change since the baseline checks only the file never built" --since "$baseline" -- \
    recorder/src/fresh.cpp
expect "without --since, every product file" -- "${products[@]}"

echo '// edited' >> "$repo/model/src/shared.hpp"
expect "an uncommitted edit to a header checks the files that include it, and the unbuilt one" \
    --since "$baseline" -- model/src/reader.cpp model/src/index.cpp recorder/src/fresh.cpp
git -C "$repo" -c user.name=test -c user.email=test@example.org commit -q -am header
expect "the same edit, committed" \
    --since "$baseline" -- model/src/reader.cpp model/src/index.cpp recorder/src/fresh.cpp

echo '// edited' >> "$repo/recorder/src/writer.cpp"
expect "an edit to a source file checks it too" --since "$baseline" -- \
    model/src/reader.cpp model/src/index.cpp recorder/src/writer.cpp recorder/src/fresh.cpp
git -C "$repo" checkout -q -- .

echo '// edited' >> "$repo/tests/test.cpp"
expect "a test file's edit checks only what has no record" --since HEAD -- recorder/src/fresh.cpp
git -C "$repo" checkout -q -- .

echo 'WarningsAsErrors: "*"' >> "$repo/.clang-tidy"
expect "a changed configuration checks everything" --since HEAD -- "${products[@]}"
git -C "$repo" checkout -q -- .

expect "a commit not in the history checks everything" \
    --since 0123456789abcdef0123456789abcdef01234567 -- "${products[@]}"

if [ "$failures" -ne 0 ]; then
    echo "$failures case(s) failed"
    exit 1
fi
