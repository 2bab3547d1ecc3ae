#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets (Clang, ASan + UBSan; preset "fuzz", in build/fuzz) and runs each
# for SECONDS (default 60) or RUNS executions, whichever comes first, one after the other with one
# job, seeded with the committed corpus (fuzz/corpus) and with seeds made from the demo's logdirs.
# Prints each target's executions, speed, coverage (libFuzzer's cov: edges and ft: features) and
# corpus size; crashes go to build/fuzz/fuzz/artifacts. -rss_limit_mb and -malloc_limit_mb make
# a process that grows past 2 GiB, or one allocation of more than 64 MiB, a finding (the reader
# runs with a memory limit of 2 MiB in the targets; see fuzz/README.md).
#   scripts/fuzz.sh [SECONDS [RUNS [TARGET...]]]
#   scripts/fuzz.sh 36000 10000000      # a campaign: ten million executions per target
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
max_runs="${2:--1}"
shift $(( $# > 2 ? 2 : $# ))
targets=(record_framing event_index logdir recorder_api)
if [ $# -gt 0 ]; then targets=("$@"); fi

bash scripts/setup.sh fuzz
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target nanscope-demo-mlp nanscope-fuzz-seeds \
  "${targets[@]/#/nanscope_fuzz_}"

out=build/fuzz/fuzz
seeds="$out/seeds"
if [ ! -d "$seeds" ]; then
  "$out/nanscope-fuzz-seeds" --out "$seeds" --demo build/fuzz/recorder/examples/nanscope-demo-mlp
fi
mkdir -p "$out/artifacts"

status=0
summary=()
for t in "${targets[@]}"; do
  work="$out/scratch/$t"
  log="$out/$t.log"
  mkdir -p "$work" "$seeds/$t"
  echo "== $t: fuzzing for ${seconds}s (log: $log)"
  if ! "$out/nanscope_fuzz_$t" -max_total_time="$seconds" -runs="$max_runs" -timeout=10 \
      -rss_limit_mb=2048 -malloc_limit_mb=64 -max_len=65536 -print_final_stats=1 \
      -dict=fuzz/nanscope.dict \
      -artifact_prefix="$out/artifacts/$t-" "$work" "fuzz/corpus/$t" "$seeds/$t" >"$log" 2>&1; then
    status=1
    echo "   FAILED: see $log and $out/artifacts"
  fi
  last=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  summary+=("$(printf '%-15s %10s executions %8s/s  cov: %-6s ft: %-7s corpus: %s' \
    "$t" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}")")
done

echo
echo "Fuzzing, ${seconds}s or ${max_runs} executions per target:"
printf '  %s\n' "${summary[@]}"
exit $status
