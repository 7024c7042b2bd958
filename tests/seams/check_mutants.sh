#!/usr/bin/env bash
# Proves that the cross-feature suites would have caught the seam bugs of issue 28 (and those they found), and the
# hostile catalogue's families the bugs of issue 36 (docs/testing.md#mutants):
# each patch in tests/seams/mutants/ puts one of those bugs back; this script applies it, rebuilds what the guarding
# test needs, runs that test, expects it to FAIL, and takes the patch out again (also on Ctrl-C or error).
#
#   tests/seams/check_mutants.sh [BUILD_DIR]        (default build/, configured by ./dev build)
#   tests/seams/check_mutants.sh --check-apply      only that every patch still applies to the source and has a
#                                                   guard listed (seconds; ctest's source.mutants_apply runs it, so
#                                                   a change that moves the code under a patch is told to renew it)
#
# Exit 0 when every mutant is caught; 1 naming the mutants that survived. It rebuilds the core library once per
# mutant (about a minute each on 2 cores), so it is run by hand when a guarding test changes, not in CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
CHECK_APPLY=0
if [ "${1:-}" = --check-apply ]; then CHECK_APPLY=1; shift; fi
BUILD=${1:-build}
PYTHON=$(sed -n 's/^Python3_EXECUTABLE:FILEPATH=//p' "$BUILD/CMakeCache.txt")
PYTHON=${PYTHON:-/usr/bin/python3}
export PYTHONPATH="$PWD/$BUILD/python" SPOTSIM_CLI="$PWD/$BUILD/tools/spotsim" SPOTSIM_REPO_DIR="$PWD"

# mutant -> "targets to rebuild|command that must fail"
declare -A GUARD=(
  [1-guarantee-ignores-the-move]="cross_feature_guarantee_tests spotsim|$BUILD/tests/guarantee/cross_feature_guarantee_tests"
  [2-report-refuses-null-regret]="spotsim|$PYTHON -m pytest -q -p no:cacheprovider tests/python/test_output_readers.py -k report_reads"
  [3-steptime-own-gpu-drops-options]="spotsim|$PYTHON -m pytest -q -p no:cacheprovider tests/python/test_steptime_seams.py"
  [4a-python-simulate-lacks-options]="_spotsim|$PYTHON -m pytest -q -p no:cacheprovider tests/python/test_cli_parity.py"
  [4b-campaign-ignores-trials-with-jobs]="spotsim|$PYTHON -m pytest -q -p no:cacheprovider tests/python/test_cli_parity.py -k campaign"
  [4c-effective-interval-in-instance-hours]="_spotsim|$PYTHON -m pytest -q -p no:cacheprovider tests/python/test_cli_parity.py -k effective"
  [6-exploitation-rule-frees-the-policy]="cross_feature_guarantee_tests|$BUILD/tests/guarantee/cross_feature_guarantee_tests --gtest_filter=*Once*"
  [7-deadline-nodes-ignores-the-pause-under-way]="cross_feature_guarantee_tests|$BUILD/tests/guarantee/cross_feature_guarantee_tests --gtest_filter=*Once*"
  [8-state-region-ignores-the-save-before-a-move]="cross_feature_guarantee_tests|$BUILD/tests/guarantee/cross_feature_guarantee_tests --gtest_filter=*Once*"
  [9-outputs-replace-whatever-is-there]="spotsim|$PYTHON tests/hostile/run_catalogue.py --bin-dir $BUILD/tools --cases tests/hostile/cases/family_outputs.json"
  [10-slurm-scripts-paste-paths-unquoted]="spotsim|$PYTHON tests/hostile/run_catalogue.py --bin-dir $BUILD/tools --cases tests/hostile/cases/family_shell_paths.json"
  [11-json-writer-aborts-on-non-utf8]="spotsim|$PYTHON tests/hostile/run_catalogue.py --bin-dir $BUILD/tools --cases tests/hostile/cases/family_non_utf8.json"
  [12-policy-answers-unchecked]="spotsim _spotsim|$PYTHON tests/hostile/run_catalogue.py --bin-dir $BUILD/tools --cases tests/hostile/cases/family_policy_answers.json"
  [13-signals-leave-temporary-files]="spotsim|$PYTHON -m pytest -q -p no:cacheprovider tests/python/test_signals.py"
  [5-only-zone-ignored-on-spotsim-traces]="spotsim _spotsim|$PYTHON -m pytest -q -p no:cacheprovider tests/python/test_output_readers.py -k trace_convert"
)

if ((CHECK_APPLY)); then
  stale=()
  for patch in tests/seams/mutants/*.patch; do
    name=$(basename "$patch" .patch)
    [ -n "${GUARD[$name]:-}" ] || { echo "no guard listed for $name in $0"; stale+=("$name"); continue; }
    git apply --check "$patch" 2>/dev/null || { echo "no longer applies: $patch (regenerate it: docs/testing.md#mutants)"; stale+=("$name"); }
  done
  ((${#stale[@]} == 0)) || exit 1
  echo "all ${#GUARD[@]} mutants apply"
  exit 0
fi

applied=""
restore() {
  if [ -n "$applied" ]; then
    git apply -R "$applied"
    applied=""
  fi
}
trap restore EXIT INT TERM

survivors=()
for patch in tests/seams/mutants/*.patch; do
  name=$(basename "$patch" .patch)
  IFS='|' read -r targets command <<<"${GUARD[$name]:?no guard listed for $name}"
  git apply "$patch"
  applied=$patch
  # shellcheck disable=SC2086
  cmake --build "$BUILD" -j "$(nproc)" --target $targets >/dev/null
  # shellcheck disable=SC2086
  if $command >"$BUILD/mutant-$name.log" 2>&1; then
    echo "SURVIVED  $name (see $BUILD/mutant-$name.log)"
    survivors+=("$name")
  else
    echo "caught    $name"
  fi
  restore
done
# Leave the build as the source is.
targets_all=$(printf '%s\n' "${GUARD[@]}" | cut -d'|' -f1 | tr ' ' '\n' | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086
cmake --build "$BUILD" -j "$(nproc)" --target $targets_all >/dev/null
if ((${#survivors[@]})); then
  echo "mutants that no test caught: ${survivors[*]}"
  exit 1
fi
echo "all ${#GUARD[@]} mutants caught"
