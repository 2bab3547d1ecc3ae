#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Renders the main window to docs/screenshot.png the way the README shows it: the demo's logdir
# opened and its first alert double-clicked, on a 1600x1000 Xvfb screen (no display needed).
# NANSCOPE_BUILD_DIR picks another build directory than the default preset's.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
build=${NANSCOPE_BUILD_DIR:-build/default}
if [ "$build" = build/default ]; then
    cmake --preset default >/dev/null
else
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target nanscope nanscope-demo-mlp ${JOBS:+-j "$JOBS"}

logdir=$(mktemp -d "${TMPDIR:-/tmp}/nanscope-screenshot.XXXXXX")
trap 'rm -rf "$logdir"' EXIT
"$build"/recorder/examples/nanscope-demo-mlp \
    --dump_dir "$logdir" --dump_tensor_debug_mode FULL_HEALTH --dump_circular_buffer_size -1 \
    >/dev/null
mkdir -p docs
xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$build"/bin/nanscope --screenshot docs/screenshot.png "$logdir"
echo "Wrote docs/screenshot.png"
