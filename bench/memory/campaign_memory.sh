#!/usr/bin/env bash
# Peak memory (RSS) and wall time of `spotsim campaign` by job count and replications, as a Markdown table
# (docs/campaign.md#speed). The jobs arrive one a minute, 30 min of work each on one GPU, on the shipped 13-zone
# H100 capacity trace, so that few queue at once: what is measured is the memory a campaign holds per job and per
# replication, not the queueing (which the speed work addresses). Usage:
#   bench/memory/campaign_memory.sh [SPOTSIM] > table.md
#     SPOTSIM    the binary [default build/tools/spotsim]
#   CASES="2000:2 2000:40"   jobs:replications pairs [default: 2000:2 2000:40 20000:2]
#   THREADS=N  worker threads [default 2]
set -euo pipefail
# shellcheck source=bench/memory/peak_usage.sh
source "$(dirname "$0")/peak_usage.sh"
spotsim=${1:-build/tools/spotsim}
threads=${THREADS:-2}
cases=${CASES:-"2000:2 2000:40 20000:2"}
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time, package 'time')" >&2; exit 2; }
[ -x "$spotsim" ] || { echo "no spotsim binary at $spotsim" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| jobs | replications | peak RSS (MB) | wall time (s) |"
echo "|---:|---:|---:|---:|"
for case in $cases; do
  jobs=${case%%:*}
  reps=${case##*:}
  awk -v n="$jobs" 'BEGIN { print "name,arrival,work,gpus,priority,deadline"; for (i = 0; i < n; ++i) printf "job-%d,%dm,30m,1,0,\n", i, i }' \
    > "$work/jobs.csv"
  /usr/bin/time -v -o "$work/time.txt" "$spotsim" campaign --jobs "$work/jobs.csv" -p spot-only -r "$reps" \
    --threads "$threads" --managed-catalogue none -q -o "$work/out.json" 2> "$work/stderr.txt" > /dev/null ||
    { echo "campaign of $jobs jobs x $reps failed:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
  peak_usage "$work/time.txt"
  echo "| $jobs | $reps | $rss_mb | $wall_s |"
done
