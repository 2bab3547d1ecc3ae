#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
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
  # Only what has threads: the recorder's writer and flush thread and its queue of device events,
  # the reader's decoding pool, and the demo that drives the recorder; the GUI is not built here.
  cmake --preset tsan
  cmake --build --preset tsan --target nanscope_format_tests nanscope_recorder_tests \
    nanscope_recorder_device_tests nanscope_demo_tests nanscope-demo-mlp nanscope_core_tests
  ctest --preset tsan -R '^(format|recorder|demo|core)'
fi
