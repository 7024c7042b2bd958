#!/usr/bin/env bash
# A plugin's policies beyond simulate: a sweep split into Slurm shards (the scripts spotsim-slurm-sweep writes, run
# here without Slurm) gives the single-machine result byte for byte, `regress` compares a baseline of a plugin
# policy when given --plugin and refuses it clearly without, records the plugin's path and content hash in the
# baseline and reports a plugin whose contents changed since, and a campaign of the plugin's spot-only equals the
# built-in's.
set -euo pipefail
spotsim="$1" repo="$2" plugin="$3"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/spec.json" <<'SPEC'
{"format": "spotsim-experiment", "version": 1, "name": "plugin-sweep", "replications": 60, "seed": 3,
 "traces": ["us-west1"], "policies": ["plugin-spot-only", "slack-guard:slack=2h"], "checkpoints": ["plugin-fixed:interval=1h"],
 "job": {"work_hours": 12, "deadline_hours": 20}}
SPEC
"$spotsim" sweep "$dir/spec.json" --plugin "$plugin" --out "$dir/single" --quiet

"$repo/experiments/slurm/spotsim-slurm-sweep" "$dir/spec.json" "$dir/slurm" --shards 2 --spotsim "$spotsim" \
  --plugin "$plugin" --dry-run > /dev/null
grep -qF -- "--plugin $(printf '%q' "$plugin")" "$dir/slurm/shard.sbatch" || { echo "FAIL: the shard script does not load the plugin"; exit 1; }
for i in 1 2; do SLURM_ARRAY_TASK_ID=$i bash "$dir/slurm/shard.sbatch"; done
bash "$dir/slurm/merge.sbatch"
for f in summary.json runs.csv; do
  cmp "$dir/single/$f" "$dir/slurm/merged/$f" || { echo "FAIL: merged $f differs from the single-machine sweep"; exit 1; }
done
if "$repo/experiments/slurm/spotsim-slurm-sweep" "$dir/spec.json" "$dir/slurm" --shards 2 --spotsim "$spotsim" \
     --dry-run 2> "$dir/err.txt"; then
  echo "FAIL: a resubmission without the plugin was accepted"; exit 1
fi
grep -q "other --plugin options" "$dir/err.txt" || { echo "FAIL: unclear refusal:"; cat "$dir/err.txt"; exit 1; }

"$spotsim" regress --update --from-spec "$dir/spec.json" --plugin "$plugin" "$dir/baseline.json" > /dev/null
# The baseline records the plugin: its canonical path, FNV-1a 64 of its bytes (computed here independently) and the
# experiment's policies that came from it.
python3 - "$dir/baseline.json" "$plugin" <<'PY' || { echo "FAIL: the baseline does not record the plugin"; exit 1; }
import json, os, sys
doc, plugin = json.load(open(sys.argv[1])), sys.argv[2]
h = 0xcbf29ce484222325
for byte in open(plugin, "rb").read():
    h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
want = [{"path": os.path.realpath(plugin), "content_hash": "%016x" % h,
         "policies": ["plugin-spot-only", "slack-guard", "plugin-fixed"]}]
if doc.get("plugins") != want:
    sys.exit("recorded %r, expected %r" % (doc.get("plugins"), want))
PY
"$spotsim" regress --plugin "$plugin" "$dir/baseline.json" > "$dir/regress.txt"
if grep -q "note:" "$dir/regress.txt"; then echo "FAIL: a note for an unchanged plugin:"; cat "$dir/regress.txt"; exit 1; fi
# Another build of the plugin (here: the same library with bytes appended): the same numbers pass, and the report
# says the plugin changed since the baseline, naming both files and hashes, in the text and the JSON.
cp "$plugin" "$dir/librebuilt.so" && printf 'rebuilt' >> "$dir/librebuilt.so"
"$spotsim" regress --plugin "$dir/librebuilt.so" "$dir/baseline.json" > "$dir/regress-rebuilt.txt" 2> /dev/null
grep -q "note: policy 'plugin-spot-only' now comes from $dir/librebuilt.so .*the plugin changed since" \
  "$dir/regress-rebuilt.txt" || { echo "FAIL: a changed plugin is not reported:"; cat "$dir/regress-rebuilt.txt"; exit 1; }
"$spotsim" regress --plugin "$dir/librebuilt.so" "$dir/baseline.json" --format json -o "$dir/regress.json" 2> /dev/null
python3 -c "import json,sys; n=json.load(open(sys.argv[1]))['baselines'][0]['notes']; sys.exit(0 if len(n) == 3 else 'notes: %r' % n)" \
  "$dir/regress.json" || { echo "FAIL: the JSON report lacks the plugin notes"; exit 1; }
if "$spotsim" regress "$dir/baseline.json" > /dev/null 2> "$dir/regress-err.txt"; then
  echo "FAIL: regress ran a plugin policy without --plugin"; exit 1
fi
grep -q "plugin-spot-only" "$dir/regress-err.txt" || { echo "FAIL: unclear regress refusal:"; cat "$dir/regress-err.txt"; exit 1; }
campaign() { "$spotsim" campaign --trials 6 --gpus 8 -r 20 --managed-catalogue none -f json "$@"; }
campaign --plugin "$plugin" -p plugin-spot-only --checkpoint plugin-fixed:interval=1h -o "$dir/plugin-campaign.json" 2>/dev/null
campaign -p spot-only --checkpoint fixed:interval=1h -o "$dir/builtin-campaign.json" 2>/dev/null
sed -e 's/plugin-spot-only/spot-only/' -e 's/plugin-fixed/fixed/' "$dir/plugin-campaign.json" | cmp - "$dir/builtin-campaign.json" \
  || { echo "FAIL: a campaign of the plugin's policies differs from the built-in ones'"; exit 1; }
echo "plugin policies: Slurm shards merge to the single-machine sweep byte for byte; regress compares them with --plugin, records the plugin's path and hash and names a changed plugin"
