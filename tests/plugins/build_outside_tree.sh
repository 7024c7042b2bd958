#!/usr/bin/env bash
# Builds the example plugin as docs/plugins.md tells a user to (one cc line, only the public header), then checks
# that spotsim lists its policies and that plugin-spot-only gives the built-in spot-only's runs byte for byte.
set -euo pipefail
cc="$1" repo="$2" spotsim="$3"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$cc" -std=c99 -O2 -shared -fPIC -I "$repo/policies/plugin" "$repo/policies/examples/plugin/example_policies.c" \
  -o "$dir/libexample_policies.so"
"$spotsim" simulate --plugin "$dir/libexample_policies.so" --list-policies > "$dir/list.txt"
for name in plugin-spot-only slack-guard plugin-fixed; do
  grep -q "^  $name\$" "$dir/list.txt" || { echo "FAIL: --list-policies lacks $name"; cat "$dir/list.txt"; exit 1; }
done
run() { "$spotsim" simulate --plugin "$dir/libexample_policies.so" --quiet -n 300 --seed 5 --format csv "$@"; }
run --policy spot-only --checkpoint fixed:interval=45m -o "$dir/builtin.csv" 2>/dev/null
run --policy plugin-spot-only --checkpoint plugin-fixed:interval=45m -o "$dir/plugin.csv" 2>/dev/null
cmp "$dir/builtin.csv" "$dir/plugin.csv" || { echo "FAIL: the plugin's runs differ from the built-in policies'"; exit 1; }
echo "plugin built outside the tree: listed, and identical to the built-in policies over 300 runs"
