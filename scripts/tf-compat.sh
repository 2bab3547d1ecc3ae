#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks every kind of logdir the recorder writes against TensorFlow's own tfdbg2 reader and
# TensorBoard's Debugger V2 backend: the demo in all six tensor debug modes and with its circular
# buffer, the GPU demo (its CPU fallback without a device), threads, two hosts, eager executions
# only, the C interface, runs stopped at their first NaN, the PyTorch recorder in five modes under
# both op observers and stopped at its first NaN, and the TensorFlow-shaped test logdirs. Counts
# and first alert must equal nanscope-report's.
#
#   scripts/tf-compat.sh --tf-reader PATH/tf_reader.py [BUILD_DIR]
#
# tf_reader.py runs TensorFlow's and TensorBoard's unchanged reader files without TensorFlow; those
# files are not ours to ship, so this check is not part of the test suite: the rules it teaches
# are pinned by tests (recorder "[tensorflow]" tests, core "[stack]" and reader tests).
set -euo pipefail
cd "$(dirname "$0")/.."

reader=""
if [ "${1:-}" = --tf-reader ]; then
    reader=$2
    shift 2
fi
[ -n "$reader" ] && [ -f "$reader" ] || { echo "usage: $0 --tf-reader PATH/tf_reader.py [BUILD_DIR]" >&2; exit 2; }
build=${1:-build/ci}

out=$(mktemp -d "${TMPDIR:-/tmp}/nanscope-tf-compat.XXXXXX")
trap 'rm -rf "$out"' EXIT
demo=$build/recorder/examples/nanscope-demo-mlp
logdirs=()
for mode in NO_TENSOR CURT_HEALTH CONCISE_HEALTH FULL_HEALTH SHAPE FULL_TENSOR; do
    "$demo" --dump_dir "$out/demo-$mode" --dump_tensor_debug_mode "$mode" \
        --dump_circular_buffer_size -1 >/dev/null
    logdirs+=("$out/demo-$mode")
done
"$demo" --dump_dir "$out/demo-circular" --dump_tensor_debug_mode FULL_HEALTH >/dev/null
logdirs+=("$out/demo-circular")
# A run stopped at its first NaN: the logdir must be whole up to it (exit status 3 is the stop).
for mode in CURT_HEALTH FULL_HEALTH; do
    status=0
    "$demo" --dump_dir "$out/demo-stopped-$mode" --dump_tensor_debug_mode "$mode" \
        --stop_at_first_nonfinite --max_steps 20 >/dev/null 2>&1 || status=$?
    [ "$status" = 3 ] || { echo "the stopped demo exited with $status, not 3" >&2; exit 1; }
    logdirs+=("$out/demo-stopped-$mode")
done
gpu=$build/recorder/examples/nanscope-demo-mlp-gpu
if [ -x "$gpu" ] && "$gpu" --dump_dir "$out/demo-gpu" --dump_tensor_debug_mode FULL_HEALTH \
    --dump_circular_buffer_size -1 >/dev/null 2>"$out/gpu.err"; then
    logdirs+=("$out/demo-gpu")
else
    echo "skipped  the GPU demo: $(cat "$out/gpu.err" 2>/dev/null || echo not built)"
fi
for mode in FULL_HEALTH CONCISE_HEALTH; do
    "$build/tests/recorder/nanscope-compat-logdirs" "$out/compat-$mode" "$mode" >/dev/null
    logdirs+=("$out/compat-$mode"/*)
done
# The PyTorch recorder (nanscope.torch), under both op observers, where Debian's torch is there.
example=recorder/python/examples/debug_mnist_torch.py
if PYTHONPATH="$build/python" /usr/bin/python3 -c "import nanscope.torch" 2>"$out/torch.err"; then
    for observer in cpp dispatch; do
        for mode in NO_TENSOR CURT_HEALTH FULL_HEALTH SHAPE FULL_TENSOR; do
            NANSCOPE_TORCH_OBSERVER=$observer PYTHONPATH="$build/python" /usr/bin/python3 \
                "$example" --dump_dir "$out/torch-$observer-$mode" \
                --dump_tensor_debug_mode "$mode" --max_steps 3 >/dev/null
            logdirs+=("$out/torch-$observer-$mode")
        done
    done
    status=0
    PYTHONPATH="$build/python" /usr/bin/python3 "$example" --dump_dir "$out/torch-stopped" \
        --stop_at_first_nonfinite --max_steps 20 >/dev/null 2>&1 || status=$?
    [ "$status" = 3 ] || { echo "the stopped PyTorch run exited with $status, not 3" >&2; exit 1; }
    logdirs+=("$out/torch-stopped")
else
    echo "skipped  the PyTorch recorder: $(tail -1 "$out/torch.err")"
fi
for kind in tutorial tutorial-frozen-runpy keras installed-package framework-only; do
    "$build/tests/core/nanscope-tf-fixture" "$kind" "$out/tf-$kind" >/dev/null
    logdirs+=("$out/tf-$kind")
done

python3 scripts/tf_compat.py --tf-reader "$reader" --report "$build/app/report/nanscope-report" \
    "${logdirs[@]}"
