#!/usr/bin/env bash
# Builds the libFuzzer targets of the trace JSON reader, every importer, the Kineto profiler-trace reader and what
# `spotsim report` reads (results, timelines) with clang (-fsanitize=fuzzer,address,undefined) and runs each for a
# short time on a seed corpus of real files.
# Not part of the CMake build, which uses g++. Usage: tests/fuzz/run_fuzzers.sh [seconds per target, default 20]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-20}"
shared="${SPOTSIM_SHARED_DIR:-$(pwd)/../shared}/data/preemption"
out="${SPOTSIM_FUZZ_DIR:-build-fuzz}"

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "== installing clang and libclang-rt-14-dev"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
fi

# Objects are reused between runs only while no header changed (a changed class layout with stale objects gives
# false stack overflows): the headers' checksum is kept beside them.
mkdir -p "$out/obj"
headers_sum=$(find base model optimum engine traces policies steptime app -name '*.hpp' -print0 | sort -z | xargs -0 cat | md5sum | cut -d' ' -f1)
if [ "$(cat "$out/obj/.headers" 2>/dev/null)" != "$headers_sum" ]; then
  rm -f "$out"/obj/*.o
  echo "$headers_sum" > "$out/obj/.headers"
fi

# Compiles on every core (CI has two): up to $jobs clang++ at once; a failed compile stops the script.
jobs=$(nproc 2>/dev/null || echo 2)
running=()
run_limited() {  # command... : in the background, waiting for the oldest first when $jobs are running
  if [ "${#running[@]}" -ge "$jobs" ]; then wait "${running[0]}"; running=("${running[@]:1}"); fi
  "$@" &
  running+=("$!")
}
wait_all() {
  for pid in "${running[@]}"; do wait "$pid"; done
  running=()
}

# Sources compile in unity batches of up to 8 (one clang++ per batch, like the CMake build's SPOTSIM_UNITY_CORE):
# every TU parses the same standard and JSON headers, so batching takes the stage's compile time down by half.
batch_size=8
compile_objects() {  # sources... -> appends to the array named by $1
  local -n into="$1"; shift
  local sources=("$@") first unity obj src stale
  for ((first = 0; first < ${#sources[@]}; first += batch_size)); do
    local batch=("${sources[@]:first:batch_size}")
    unity="$out/obj/unity_$(echo "${batch[0]}" | tr '/' '_')_${#batch[@]}.cpp"
    obj="${unity%.cpp}.o"
    printf '#include "%s"\n' "${batch[@]/#/$(pwd)/}" > "$unity.new"
    stale=0
    cmp -s "$unity.new" "$unity" || { mv "$unity.new" "$unity"; stale=1; }
    rm -f "$unity.new"
    [ -f "$obj" ] || stale=1
    for src in "${batch[@]}"; do [ "$src" -nt "$obj" ] && stale=1; done
    if [ "$stale" = 1 ]; then run_limited clang++ "${flags[@]}" -c "$unity" -o "$obj"; fi
    into+=("$obj")
  done
  wait_all
}

fuzz() {  # name, fuzzer binary, seed files... : queued; every target runs after all are built, $jobs at once
  local name="$1"; shift
  queued+=("$name|$*")
}
queued=()
run_one() {  # name, fuzzer binary, seed files...
  local name="$1" target="$2"; shift 2
  local corpus="$out/corpus_${name//-/_}" log="$out/log_${name//-/_}.txt"
  mkdir -p "$corpus"
  for f in "$@"; do if [ -f "$f" ]; then cp "$f" "$corpus/"; fi; done
  # One libFuzzer process is single-threaded, so the targets share the cores (the stage takes half the time on two).
  if ! "$target" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 -print_final_stats=0 \
        -artifact_prefix="$out/crash_${name//-/_}_" 2>"$log"; then
    echo "!! $name: libFuzzer found a problem; see $log and $out/crash_${name//-/_}_*"
    tail -n 30 "$log"
    touch "$out/failed_${name//-/_}"
  else
    echo "== fuzzed $name for ${seconds}s: $(grep -E "^#[0-9]+.*DONE" "$log" | tail -n 1 || true)"
  fi
}
run_queued() {
  rm -f "$out"/failed_*
  local entry
  for entry in "${queued[@]}"; do
    # shellcheck disable=SC2086  # seed lists are space-separated paths without spaces
    run_limited run_one "${entry%%|*}" ${entry#*|}
  done
  wait_all
  ! ls "$out"/failed_* >/dev/null 2>&1
}

# Line tables only (-gline-tables-only): file:line in every report at a fraction of -g's compile time.
flags=(-std=c++20 -O1 -gline-tables-only -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
       -I. -I/usr/include/eigen3 -DSPOTSIM_SOURCE_TRACE_DIR=\"traces/library\" -DSPOTSIM_INSTALL_TRACE_DIR=\"traces/library\")
sources=(model/market/bathtub_lifetime.cpp model/market/empirical_lifetime.cpp model/market/lifetime_distribution.cpp
         model/market/spot_market.cpp model/market/step_series.cpp model/market/zone_selection.cpp traces/trace_reader.cpp base/json_fields.cpp
         traces/trace_migration.cpp base/shipped_library.cpp
         model/market/kaplan_meier.cpp model/market/node_reclaim.cpp model/random_streams.cpp traces/importers/*.cpp base/input_file.cpp
         base/file_checks.cpp base/integer_text.cpp base/text_escape.cpp base/text_lines.cpp)
objects=()
compile_objects objects "${sources[@]}"

# format name -> seed files (small real files and the fixtures written from the cloud APIs' documentation)
declare -A seeds=(
  [spotsim]="traces/library/us-west1.json traces/library/aws-us-west-2-v100-prices.json traces/library/gcp-h100-13-zones.json"
  [cant-be-late]="$shared/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022/us-west-2a_v100_1.json $shared/aws-gcp-spot-availability/preemption/4-node/aws-08-03-2023/us-east-1f_v100_1.json"
  [node-events]="$shared/bamboo-node-events/traces/g4dn-trace.csv $shared/parcae-node-events/liveput/traces/fake.csv"
  [instance-counts]="$shared/bamboo-node-events/traces/gcloud/a100x1-east1b.txt $shared/bamboo-node-events/doc/data/aws-spot-instances-p2-xlarge-us-east-1e-2020-11-23-1700-to-2020-11-24-0700.csv"
  [lifetime-csv]="tests/fuzz/seeds/lifetimes_head.csv"
  [gcp-lifetime-json]="tests/fuzz/seeds/gcp_lifetime_records.json"
  [skynomad-gcp-counts]="tests/fuzz/seeds/gcp_h100_probe_counts_head.csv"  # no price folder beside it: fuzzes the CSV rules
  [aws-spot-prices]="tests/traces/fixtures/aws_spot_price_history.json"
  [gcp-preemptions]="tests/traces/fixtures/gcp_preemption_operations.json"
)
for format in "${!seeds[@]}"; do  # every target built first, in parallel; then each fuzzed in turn
  run_limited clang++ "${flags[@]}" -fsanitize=fuzzer -DSPOTSIM_FUZZ_FORMAT="\"$format\"" tests/fuzz/trace_input_fuzzer.cpp \
    "${objects[@]}" -o "$out/fuzz_${format//-/_}"
done
wait_all
for format in "${!seeds[@]}"; do
  # shellcheck disable=SC2086  # seed lists are space-separated paths without spaces
  fuzz "$format" "$out/fuzz_${format//-/_}" ${seeds[$format]}
done

# The Kineto (PyTorch profiler) trace reader of `spotsim steptime`, seeded with the plain-JSON test fixtures.
kineto_objects=()
# (the steptime sources read the catalogue's JSON tables too, so they link with the trace objects above)
compile_objects kineto_objects steptime/*.cpp base/statistics.cpp
clang++ "${flags[@]}" -fsanitize=fuzzer tests/fuzz/kineto_trace_fuzzer.cpp "${kineto_objects[@]}" "${objects[@]}" -lz \
  -o "$out/fuzz_kineto"
fuzz kineto "$out/fuzz_kineto" tests/steptime/fixtures/*.json
rm -f /tmp/spotsim_kineto_fuzz_*.json

# The timeline reader of `spotsim report --timeline` and its chart, seeded with a single-instance and an elastic log.
timeline_objects=()
compile_objects timeline_objects app/report/timeline_reader.cpp app/report/timeline_chart.cpp \
  app/report/axis_ticks.cpp app/report/html_text.cpp
clang++ "${flags[@]}" -fsanitize=fuzzer tests/fuzz/timeline_fuzzer.cpp "${timeline_objects[@]}" "${objects[@]}" \
  -o "$out/fuzz_timeline"
fuzz timeline "$out/fuzz_timeline" tests/fuzz/seeds/timeline_single.jsonl tests/fuzz/seeds/timeline_elastic.jsonl

# What `spotsim report` reads (simulate and campaign JSON, embedded timelines) and the page rendered from it.
report_objects=()
compile_objects report_objects app/report/*.cpp app/sweep/pareto.cpp
clang++ "${flags[@]}" -fsanitize=fuzzer tests/fuzz/report_input_fuzzer.cpp "${report_objects[@]}" "${objects[@]}" \
  -o "$out/fuzz_report_input"
fuzz report-input "$out/fuzz_report_input" tests/fuzz/seeds/report_simulate.json tests/fuzz/seeds/report_campaign.json
rm -f /tmp/spotsim_report_fuzz_*.json

# The job stream of `spotsim campaign --jobs`, seeded with the shipped example.
stream_objects=()
compile_objects stream_objects app/campaign/job_stream_csv.cpp model/job.cpp base/duration.cpp base/data_size.cpp \
  base/count_text.cpp model/elastic_job.cpp
clang++ "${flags[@]}" -fsanitize=fuzzer tests/fuzz/job_stream_fuzzer.cpp "${stream_objects[@]}" "${objects[@]}" \
  -o "$out/fuzz_job_stream"
fuzz job-stream "$out/fuzz_job_stream" experiments/campaign/team-week.csv experiments/campaign/model-sizes.csv

echo "== fuzzing ${#queued[@]} targets for ${seconds}s each, $jobs at once"
run_queued
