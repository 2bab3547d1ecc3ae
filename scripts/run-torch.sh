#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds NaNscope and its Python package, records the PyTorch tutorial's NaN bug
# (recorder/python/examples/debug_mnist_torch.py) into a fresh logdir and opens the app on it.
# Extra arguments go to the app. Without a display it renders the window to a picture instead
# (under Xvfb) and says where.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target nanscope nanscope_python

logdir=$(mktemp -d "${TMPDIR:-/tmp}/nanscope-torch.XXXXXX")
# Debian's interpreter: python3-torch belongs to it.
PYTHONPATH=build/default/python /usr/bin/python3 recorder/python/examples/debug_mnist_torch.py \
    --dump_dir "$logdir" --dump_tensor_debug_mode FULL_HEALTH >/dev/null
echo "The PyTorch example's logdir: $logdir"

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    picture=build/default/nanscope-torch.png
    echo "No display: rendering the window to $picture instead"
    xvfb-run -a -s "-screen 0 1600x1000x24" \
        ./build/default/bin/nanscope --screenshot "$picture" "$logdir"
    exit 0
fi
exec ./build/default/bin/nanscope "$@" "$logdir"
