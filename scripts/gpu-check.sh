#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What a session with a CUDA GPU runs in one go: a release build with CUDA, the GPU tests
# (which must run, not skip), the GPU demo with its report, and the overhead benchmark. Every
# output goes to the folder given as $1 (default gpu-results/); the summary is its README.txt.
#
#   scripts/gpu-check.sh [OUTPUT_DIR]
#
# The build goes to build/gpu-release, or to $NANSCOPE_GPU_BUILD_DIR.
#
# Exit status: 0 all passed; 1 a build, test or demo failed, or no device was seen.
set -uo pipefail
cd "$(dirname "$0")/.."

out="${1:-gpu-results}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
build="${NANSCOPE_GPU_BUILD_DIR:-build/gpu-release}"
status=0

# nvcc's usual home, for machines where it is installed but not on PATH.
if ! command -v nvcc >/dev/null 2>&1 && [ -d /usr/local/cuda/bin ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  uname -a
  nvidia-smi 2>&1 || echo "nvidia-smi: not available"
  nvcc --version 2>&1 || echo "nvcc: not on PATH"
} > "$out/environment.txt"

step() { echo "== $*" | tee -a "$out/README.txt"; }
: > "$out/README.txt"

step "configure ($build, Release, CUDA on)"
# Warnings stay warnings: GCC 12 has -O3 false positives, and this run is about the GPU.
if ! cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNANSCOPE_WITH_CUDA=ON \
    -DNANSCOPE_BUILD_GUI=OFF -DNANSCOPE_WARNINGS_AS_ERRORS=OFF > "$out/configure.txt" 2>&1; then
  step "configure FAILED (see configure.txt)"; exit 1
fi
if ! grep -q "CUDA, summaries" "$out/configure.txt"; then
  step "no CUDA compiler found: put nvcc on PATH or pass -DCMAKE_CUDA_COMPILER"; exit 1
fi

step "build"
targets=(nanscope_gpu_tests nanscope_recorder_tests nanscope_bench_gpu nanscope-demo-mlp
         nanscope-demo-mlp-gpu nanscope-report)
if ! cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" > "$out/build.txt" 2>&1; then
  step "build FAILED (see build.txt)"; exit 1
fi

step "tests: gpu and recorder (ctest)"
(cd "$build" && ctest -R '^(gpu|recorder):' --output-on-failure) > "$out/tests.txt" 2>&1 ||
  status=1
tail -n 30 "$out/tests.txt" | grep -E "tests passed|tests failed|Skipped|Failed" |
  tee -a "$out/README.txt"
if grep -q "Skipped" "$out/tests.txt"; then
  step "GPU tests were SKIPPED: this machine has no usable CUDA device (see tests.txt)"
  status=1
fi

step "GPU demo: the tutorial's MLP with FULL_HEALTH, and its report"
logdir="$out/demo-logdir"
rm -rf "$logdir"
"$build/recorder/examples/nanscope-demo-mlp-gpu" --dump_dir "$logdir" \
  --dump_tensor_debug_mode FULL_HEALTH > "$out/demo.txt" 2>&1 || status=1
tail -n 3 "$out/demo.txt" | tee -a "$out/README.txt"
# nanscope-report exits with 1 when it finds alerts, as it should here.
"$build/app/report/nanscope-report" "$logdir" > "$out/demo-report.txt" 2>&1
[ $? -le 1 ] || status=1

step "benchmark: nanscope_bench_gpu (bandwidth, batches, training-step overhead)"
"$build/tests/bench/nanscope_bench_gpu" > "$out/bench-gpu.txt" 2>&1 || status=1
"$build/tests/bench/nanscope_bench_gpu" --tf32 > "$out/bench-gpu-tf32.txt" 2>&1 || status=1
cat "$out/bench-gpu.txt" >> "$out/README.txt"

if [ $status -eq 0 ]; then step "all passed"; else step "something FAILED or was skipped"; fi
echo "Outputs: $out"
exit $status
