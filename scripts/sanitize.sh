#!/usr/bin/env bash
# The test suite under sanitizers: every test under AddressSanitizer + UndefinedBehaviorSanitizer,
# and the recorder, the format library and the reader (the code with threads) under
# ThreadSanitizer. Usage: scripts/sanitize.sh [asan|tsan|all]
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:-all}
case "$which" in
  asan|tsan|all) ;;
  *) echo "usage: $0 [asan|tsan|all]" >&2; exit 2 ;;
esac

bash scripts/setup.sh

if [ "$which" != tsan ]; then
  cmake --preset asan
  cmake --build --preset asan
  ctest --preset asan
fi

if [ "$which" != asan ]; then
  cmake --preset tsan
  cmake --build --preset tsan
  ctest --preset tsan
fi
