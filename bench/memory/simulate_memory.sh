#!/usr/bin/env bash
# Peak memory (RSS) and wall time of `simulate` by replication count and output format, as a Markdown table
# (docs/outputs.md#memory-and-disk). Usage:
#   bench/memory/simulate_memory.sh [SIMULATE] > table.md
#     SIMULATE   the binary [default build/tools/simulate]
#   CASES="100000:table 1000000:csv"   replication:format pairs [default: 10^5..10^7 table, 10^5..10^6 csv and json]
#   THREADS=N  worker threads [default 2]
# Outputs go to a temporary directory (removed at the end); csv/json are written with --output, as a user would.
set -euo pipefail
# shellcheck source=bench/memory/peak_usage.sh
source "$(dirname "$0")/peak_usage.sh"
simulate=${1:-build/tools/simulate}
threads=${THREADS:-2}
cases=${CASES:-"100000:table 1000000:table 10000000:table 100000:csv 1000000:csv 100000:json 1000000:json"}
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time, package 'time')" >&2; exit 2; }
[ -x "$simulate" ] || { echo "no simulate binary at $simulate" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| replications | format | peak RSS (MB) | wall time (s) | output (MB) |"
echo "|---:|---|---:|---:|---:|"
for case in $cases; do
  n=${case%%:*}
  format=${case##*:}
  out=()
  [ "$format" = table ] || out=(--output "$work/out.$format")
  /usr/bin/time -v -o "$work/time.txt" "$simulate" -n "$n" --threads "$threads" --format "$format" "${out[@]}" \
    > "$work/stdout.txt" 2> "$work/stderr.txt" || { echo "simulate -n $n --format $format failed:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
  peak_usage "$work/time.txt"
  size=$(stat -c %s "${out[1]:-$work/stdout.txt}")
  printf "| %s | %s | %s | %s | %s |\n" "$n" "$format" "$rss_mb" "$wall_s" "$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1e6 }')"
  rm -f "$work"/out.*
done
echo
echo "Measured with: bench/memory/simulate_memory.sh $simulate (THREADS=$threads) on $(nproc) cores, $(uname -m)"
