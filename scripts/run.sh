#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds NaNscope and its demo, records the tutorial's NaN bug into a fresh logdir and opens the
# app on it. Extra arguments go to the app (e.g. --follow). Without a display it renders the
# window to a picture instead (under Xvfb) and says where.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target nanscope nanscope-demo-mlp

logdir=$(mktemp -d "${TMPDIR:-/tmp}/nanscope-demo.XXXXXX")
./build/default/recorder/examples/nanscope-demo-mlp \
    --dump_dir "$logdir" --dump_tensor_debug_mode FULL_HEALTH --dump_circular_buffer_size -1 \
    >/dev/null
echo "The demo's logdir: $logdir"

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    picture=build/default/nanscope-demo.png
    echo "No display: rendering the window to $picture instead"
    xvfb-run -a -s "-screen 0 1600x1000x24" \
        ./build/default/bin/nanscope --screenshot "$picture" "$logdir"
    exit 0
fi
exec ./build/default/bin/nanscope "$@" "$logdir"
