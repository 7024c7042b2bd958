#!/usr/bin/env bash
# A plugin's policies beyond simulate: a sweep split into Slurm shards (the scripts spotsim-slurm-sweep writes, run
# here without Slurm) gives the single-machine result byte for byte, `regress` compares a baseline of a plugin
# policy when given --plugin and refuses it clearly without, and a campaign of the plugin's spot-only equals the
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
"$spotsim" regress --plugin "$plugin" "$dir/baseline.json" > "$dir/regress.txt"
if "$spotsim" regress "$dir/baseline.json" > /dev/null 2> "$dir/regress-err.txt"; then
  echo "FAIL: regress ran a plugin policy without --plugin"; exit 1
fi
grep -q "plugin-spot-only" "$dir/regress-err.txt" || { echo "FAIL: unclear regress refusal:"; cat "$dir/regress-err.txt"; exit 1; }
campaign() { "$spotsim" campaign --trials 6 --gpus 8 -r 20 --managed-catalogue none -f json "$@"; }
campaign --plugin "$plugin" -p plugin-spot-only --checkpoint plugin-fixed:interval=1h -o "$dir/plugin-campaign.json" 2>/dev/null
campaign -p spot-only --checkpoint fixed:interval=1h -o "$dir/builtin-campaign.json" 2>/dev/null
sed -e 's/plugin-spot-only/spot-only/' -e 's/plugin-fixed/fixed/' "$dir/plugin-campaign.json" | cmp - "$dir/builtin-campaign.json" \
  || { echo "FAIL: a campaign of the plugin's policies differs from the built-in ones'"; exit 1; }
echo "plugin policies: Slurm shards merge to the single-machine sweep byte for byte; regress compares them with --plugin"
