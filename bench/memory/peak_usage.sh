# Sourced by the memory scripts: `peak_usage TIME_FILE` reads what GNU time -v wrote and sets rss_mb (peak resident
# set, MB) and wall_s (elapsed seconds, one decimal).
peak_usage() {
  local kb elapsed
  kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$1")
  elapsed=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$1")
  rss_mb=$(awk -v kb="$kb" 'BEGIN { printf "%.0f", kb / 1024 }')
  wall_s=$(echo "$elapsed" | awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; printf "%.1f", s }')
}
