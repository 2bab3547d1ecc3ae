#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The test suite under sanitizers: every test under AddressSanitizer + UndefinedBehaviorSanitizer,
# and the recorder, the format library and the reader (the code with threads) under
# ThreadSanitizer. Usage: scripts/sanitize.sh [asan|asan-lean|tsan|all|ci]
#   all: asan, then tsan. ci: asan-lean, then tsan, in the time CI has: asan-lean builds no GUI,
#   and of the tests only those where untrusted bytes are read (the format, the summaries, the
#   reader and the report, and the fuzz corpora's replays, the recorder's API among them).
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:-all}
case "$which" in
  asan|asan-lean|tsan|all|ci) ;;
  *) echo "usage: $0 [asan|asan-lean|tsan|all|ci]" >&2; exit 2 ;;
esac

bash scripts/setup.sh

case "$which" in
  asan|all) asan=asan ;;
  asan-lean|ci) asan=asan-lean ;;
  *) asan="" ;;
esac
if [ "$asan" = asan ]; then
  cmake --preset asan
  cmake --build --preset asan
  ctest --preset asan
elif [ "$asan" = asan-lean ]; then
  cmake --preset asan-lean
  cmake --build --preset asan-lean --target nanscope_format_tests nanscope_summary_tests \
    nanscope_gpu_tests nanscope_core_tests nanscope_fuzz_replays
  ctest --preset asan-lean -R '^(format|summary|gpu|core|fuzz replay):'
fi

if [ "$which" = tsan ] || [ "$which" = all ] || [ "$which" = ci ]; then
  # Only what has threads: the recorder's writer and flush thread and its queue of device events,
  # the reader's decoding pool, and the demo that drives the recorder; the GUI is not built here,
  # and of the reader's tests only those with threads (tests/core/CMakeLists.txt).
  cmake --preset tsan
  cmake --build --preset tsan --target nanscope_format_tests nanscope_recorder_tests \
    nanscope_recorder_device_tests nanscope_demo_tests nanscope-demo-mlp nanscope_core_tests
  ctest --preset tsan -R '^(format|recorder|demo|core)'
fi
