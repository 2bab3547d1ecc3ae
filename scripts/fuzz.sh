#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets and runs each for SECONDS (default 60) or RUNS executions,
# whichever comes first, seeded with the committed corpus (fuzz/corpus) and with seeds made from
# the demo's logdirs. Prints each target's executions, speed, coverage (libFuzzer's cov: edges
# and ft: features) and corpus size; crashes go to build/<preset>/fuzz/artifacts.
#
# Two builds (fuzz/README.md):
#   default   preset "fuzz" (ASan + UBSan): -rss_limit_mb and -malloc_limit_mb make a process
#             that grows past 2 GiB, or one allocation of more than 64 MiB, a finding, and the
#             logdir and event-index targets abort on heap growth past their bound (heapwatch).
#   --volume  preset "fuzz-volume" (UBSan only), several times faster: for campaigns. Every input
#             the campaign keeps (its corpus, plus any crash) is then replayed once through the
#             ASan build with the same limits, so memory errors and amplification in what the
#             campaign reached are still findings.
# --jobs N runs N targets at a time (one process each); --max-len N bounds the inputs (default
# 65536; small inputs run several times faster); --until HH:MM ends every target by then.
#   scripts/fuzz.sh [--volume] [--jobs N] [--max-len N] [--until HH:MM] [SECONDS [RUNS [TARGET...]]]
#   scripts/fuzz.sh --volume --jobs 2 --max-len 4096 7200 10000000   # a campaign: 10^7 per target
set -euo pipefail
cd "$(dirname "$0")/.."

volume=0
jobs=1
max_len=65536
until=""
while [ $# -gt 0 ]; do
  case "$1" in
    --volume) volume=1; shift ;;
    --jobs) jobs="$2"; shift 2 ;;
    --max-len) max_len="$2"; shift 2 ;;
    --until) until=$(date -d "$2" +%s); shift 2 ;;
    --) shift; break ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
seconds="${1:-60}"
max_runs="${2:--1}"
shift $(( $# > 2 ? 2 : $# ))
targets=(record_framing event_index logdir recorder_api)
if [ $# -gt 0 ]; then targets=("$@"); fi

build() { # preset, then targets
  local preset="$1"
  shift
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" --target "$@"
}

bash scripts/setup.sh fuzz
build fuzz nanscope-demo-mlp nanscope-fuzz-seeds "${targets[@]/#/nanscope_fuzz_}"
checked=build/fuzz/fuzz # the ASan build: it runs, or replays, everything
out=$checked
if [ "$volume" = 1 ]; then
  build fuzz-volume "${targets[@]/#/nanscope_fuzz_}"
  out=build/fuzz-volume/fuzz
fi

seeds="$checked/seeds"
if [ ! -d "$seeds" ]; then
  "$checked/nanscope-fuzz-seeds" --out "$seeds" --demo build/fuzz/recorder/examples/nanscope-demo-mlp
fi
mkdir -p "$out/artifacts"
limits=(-rss_limit_mb=2048 -malloc_limit_mb=64 -timeout=10 -dict=fuzz/nanscope.dict)

fuzz_one() { # target: fuzzes, then (volume) replays what it kept through the ASan build
  local t="$1" work="$out/scratch/$1" log="$out/$1.log" status=0
  mkdir -p "$work" "$seeds/$t"
  local time="$seconds"
  if [ -n "$until" ]; then
    time=$(( until - $(date +%s) ))
    [ "$time" -lt "$seconds" ] || time="$seconds"
    [ "$time" -gt 0 ] || time=1
  fi
  echo "== $t: fuzzing for ${time}s or ${max_runs} executions (log: $log)"
  # entropic=0: libFuzzer's entropic scheduler spent 30-40 % of the logdir target's time
  # updating feature frequencies (tens of thousands of features per execution). reload=0: one
  # process per corpus directory, so nothing to re-read (its directory scans were 6 %).
  "$out/nanscope_fuzz_$t" -max_total_time="$time" -runs="$max_runs" -entropic=0 -reload=0 \
    -max_len="$max_len" -print_final_stats=1 "${limits[@]}" \
    -artifact_prefix="$out/artifacts/$t-" "$work" "fuzz/corpus/$t" "$seeds/$t" >"$log" 2>&1 ||
    status=1
  if [ "$volume" = 1 ]; then
    local replay="$out/$t.asan-replay.log"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "$checked/nanscope_fuzz_$t" -runs=0 \
      -max_len="$max_len" "${limits[@]}" -artifact_prefix="$out/artifacts/$t-asan-" \
      "$work" >"$replay" 2>&1 || status=1
    # Crashes are files, which libFuzzer runs one by one only when given no directory.
    if compgen -G "$out/artifacts/$t-[!a]*" >/dev/null; then
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "$checked/nanscope_fuzz_$t" "${limits[@]}" \
        "$out"/artifacts/"$t"-[!a]* >>"$replay" 2>&1 || status=1
    fi
  fi
  return $status
}

summary_of() { # target
  local t="$1" log="$out/$1.log" last runs cov ft corp speed replayed=""
  last=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  if [ "$volume" = 1 ]; then
    replayed=$(grep -oE '^#[0-9]+[[:space:]]+INITED' "$out/$t.asan-replay.log" | grep -oE '[0-9]+' |
      tail -n 1 || true)
    replayed="  ASan replay: ${replayed:-?} inputs"
  fi
  printf '%-15s %10s executions %8s/s  cov: %-6s ft: %-7s corpus: %s%s' \
    "$t" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$replayed"
}

status=0
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || status=1; done
  fuzz_one "$t" &
done
while :; do # every target's status, whether it ended above or not (127: none left)
  rc=0
  wait -n || rc=$?
  [ $rc = 127 ] && break
  [ $rc = 0 ] || status=1
done

echo
echo "Fuzzing, ${seconds}s or ${max_runs} executions per target$([ "$volume" = 1 ] && echo ', volume build, kept inputs replayed under ASan'):"
for t in "${targets[@]}"; do printf '  %s\n' "$(summary_of "$t")"; done
if [ $status != 0 ]; then
  echo "FAILED: see the logs above and $out/artifacts" >&2
fi
exit $status
