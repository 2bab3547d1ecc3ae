#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the recorder's demo, runs the tutorial's buggy MLP with FULL_HEALTH recording, and
# prints where its logdir is. Extra arguments go to the demo (e.g. --fix).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target nanscope-demo-mlp

logdir=$(mktemp -d "${TMPDIR:-/tmp}/nanscope-demo.XXXXXX")
./build/default/recorder/examples/nanscope-demo-mlp \
    --dump_dir "$logdir" --dump_tensor_debug_mode FULL_HEALTH --dump_circular_buffer_size -1 "$@"
echo
echo "The demo's logdir: $logdir"
