#!/usr/bin/env bash
# The compiled-plugin speed check of docs/plugins.md: the same spot-only policy, built in and as the example plugin,
# over the same Can't Be Late windows as one-thread sweeps, run in turn; prints each run's seconds, the median
# ratio plugin / built-in and whether the runs were identical.
#   bench/plugin_vs_builtin.sh [build dir, default build] [windows, default 200000] [pairs, default 7]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}" windows="${2:-200000}" pairs="${3:-7}"
spotsim="$build/tools/spotsim" plugin="$build/policies/libexample_policies.so"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for policy in spot-only plugin-spot-only; do
  python3 - "$policy" "$windows" "$dir" "$(pwd)" <<'PY'
import json, sys
policy, windows, out, repo = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
spec = json.load(open(f"{repo}/bench/specs/cant-be-late-windows-greedy.json"))
spec.update(name=f"plugin speed {policy}", policies=[policy], replications=windows, chunk_runs=windows,
            traces=[f"{repo}/experiments/traces/cbl/cbl-aws-10-26-2022-us-west-2a_v100_1.json"])
json.dump(spec, open(f"{out}/{policy}.json", "w"))
PY
done
seconds() {  # policy -> wall seconds of one sweep
  rm -rf "$dir/out-$1"
  local start end
  start=$(date +%s.%N)
  "$spotsim" sweep --plugin "$plugin" "$dir/$1.json" -o "$dir/out-$1" --threads 1 --quiet >/dev/null 2>&1
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
seconds spot-only >/dev/null; seconds plugin-spot-only >/dev/null  # warm-up
ratios=()
for ((i = 0; i < pairs; i++)); do
  b=$(seconds spot-only) p=$(seconds plugin-spot-only)
  ratios+=("$(awk "BEGIN { print $p / $b }")")
  printf 'pair %d: built-in %.3f s, plugin %.3f s\n' "$((i + 1))" "$b" "$p"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
printf 'median plugin / built-in wall time: %.3f over %d pairs of %d windows\n' "$median" "$pairs" "$windows"
if cmp -s <(cut -d, -f1-3,5- "$dir/out-spot-only/runs.csv") <(cut -d, -f1-3,5- "$dir/out-plugin-spot-only/runs.csv"); then
  echo "runs identical (every column but the policy name)"
else
  echo "runs DIFFER"; exit 1
fi
