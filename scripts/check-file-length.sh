#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# No product source file over 600 lines: a file that grows past that holds more than one job,
# and splitting it early costs less than later. Tests, benchmarks and tools are not product code.
#
#   scripts/check-file-length.sh [LIMIT]
set -euo pipefail
cd "$(dirname "$0")/.."

limit=${1:-600}
mapfile -t files < <(git ls-files 'app/*' 'views/*' 'widgets/*' 'model/*' 'format/*' 'recorder/*' \
    'gpu/*' 'summary/*' | grep -E '\.(c|cpp|cu|h|hpp|py)$')
over=0
for f in "${files[@]}"; do
    lines=$(wc -l < "$f")
    if [ "$lines" -gt "$limit" ]; then
        echo "$f: $lines lines (at most $limit)" >&2
        over=$((over + 1))
    fi
done
if [ "$over" -gt 0 ]; then
    echo "check-file-length: $over product files over $limit lines; split them by job" >&2
    exit 1
fi
echo "check-file-length: ${#files[@]} product files, none over $limit lines"
