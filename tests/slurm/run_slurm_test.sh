#!/usr/bin/env bash
# End-to-end test of experiments/slurm/spotsim-slurm-sweep against a real Slurm: installs Debian's slurm-wlm and
# munge if missing, runs a controller and one node on this machine, submits a small sweep as a job array of 4
# shards plus the dependent merge, and checks that
#   1. the merged result is byte-identical to a local `spotsim sweep` of the same spec;
#   2. after one array task is cancelled on purpose, the merge does not run, and resubmitting computes only the
#      missing shard and then merges to the same bytes.
# Every wait is bounded; on failure the Slurm and task logs are printed. Daemons are shut down on exit.
# usage: tests/slurm/run_slurm_test.sh [path/to/spotsim]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
spotsim=${1:-$repo/build/tools/spotsim}
submit="$repo/experiments/slurm/spotsim-slurm-sweep"
[ -x "$spotsim" ] || { echo "slurm test: $spotsim not built" >&2; exit 2; }
work=$(mktemp -d /tmp/spotsim-slurm-test.XXXXXX)
log() { echo "slurm test: $*"; }

need=()
for p in slurm-wlm munge; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p"); done
if ((${#need[@]})); then
  log "installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# --- a single-host cluster --------------------------------------------------------------------------------
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work"/{state,spool,log}
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=spotsim-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

started_munge=0
cleanup() {
  local status=$?
  if [ $status -ne 0 ]; then
    echo "slurm test: FAILED; logs follow" >&2
    for f in "$work"/log/*.log "$work"/*/logs/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -n 25 "$f" >&2; }; done
  fi
  scontrol shutdown >/dev/null 2>&1 || true
  for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid"; do [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true; done
  [ $started_munge = 1 ] && pkill -x munged 2>/dev/null || true
  exit $status
}
trap cleanup EXIT

wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...
  local limit=$1 what=$2; shift 2
  for ((t = 0; t < limit * 2; t++)); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  echo "slurm test: timed out after ${limit}s waiting for $what" >&2
  return 1
}

if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  mkdir -p /etc/munge /run/munge /var/log/munge /var/lib/munge
  [ -s /etc/munge/munge.key ] || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
  chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
  chmod 700 /etc/munge && chmod 400 /etc/munge/munge.key
  /usr/sbin/munged --force
  started_munge=1
  wait_for 10 "munged" sh -c 'munge -n | unmunge'
fi
/usr/sbin/slurmctld -f "$SLURM_CONF"
/usr/sbin/slurmd -f "$SLURM_CONF"
wait_for 60 "the node to become idle" sh -c "sinfo -h -o %t | grep -q idle"
log "cluster up: $(sinfo -h -o '%P %D %t %c CPUs')"

# --- the sweep ------------------------------------------------------------------------------------------------
spec="$work/spec.json"
cat > "$spec" <<SPEC
{"format": "spotsim-experiment", "version": 1, "name": "slurm-test", "seed": 5, "replications": 300,
 "traces": ["$repo/traces/library/us-west1.json"], "policies": ["on-demand", "spot-only", "adaptive"],
 "baseline_policy": "on-demand", "checkpoints": ["young-daly"], "job": {"work_hours": 24}, "chunk_runs": 100}
SPEC
"$spotsim" sweep "$spec" --out "$work/local" --quiet > "$work/local-sweep.txt"
compare() {  # the merged result must equal the local one, file by file
  local a=$1 b=$2 f
  for f in $(cd "$a" && find . -maxdepth 1 -type f | sort); do
    cmp "$a/$f" "$b/$f" || { echo "slurm test: $b/$f differs from the local run" >&2; return 1; }
  done
  log "merged result in $b is byte-identical to the local run ($(cd "$a" && find . -maxdepth 1 -type f | wc -l) files)"
}
queue_empty() { [ -z "$(squeue -h -o %i)" ]; }

log "round 1: 4 shards as a job array, then the merge"
"$submit" "$spec" "$work/run1" --shards 4 --spotsim "$spotsim"
wait_for 180 "the array and merge jobs" queue_empty
[ -f "$work/run1/merged/manifest.json" ] || { echo "slurm test: no merged result in $work/run1/merged" >&2; exit 1; }
for i in 1 2 3 4; do [ -s "$work/run1/logs/shard-$i.log" ] || [ -f "$work/run1/shards/$i.done" ] || exit 1; done
compare "$work/local" "$work/run1/merged"

log "round 2: cancel shard 3 on purpose, check the merge does not run, resubmit"
"$submit" "$spec" "$work/run2" --shards 4 --spotsim "$spotsim" -- --hold
read -r _ array_job merge_job < <(tail -n 1 "$work/run2/slurm-jobs.txt")
scancel "${array_job}_3"
scontrol release "$array_job" "$merge_job"
wait_for 180 "the remaining shards" queue_empty
[ ! -e "$work/run2/shards/3.done" ] || { echo "slurm test: shard 3 ran although it was cancelled" >&2; exit 1; }
[ ! -e "$work/run2/merged" ] || { echo "slurm test: the merge ran although a shard failed" >&2; exit 1; }
for i in 1 2 4; do [ -f "$work/run2/shards/$i.done" ] || { echo "slurm test: shard $i did not finish" >&2; exit 1; }; done
out=$("$submit" "$spec" "$work/run2" --shards 4 --spotsim "$spotsim")
echo "$out"
grep -q "submitted shards 3 of 4" <<<"$out" || { echo "slurm test: resubmission did not target only shard 3" >&2; exit 1; }
wait_for 180 "the resubmitted shard and merge" queue_empty
compare "$work/local" "$work/run2/merged"
"$submit" "$spec" "$work/run2" --shards 4 --spotsim "$spotsim" | grep -q "are done" || exit 1
log "passed"
rm -rf "$work/local" "$work/run1" "$work/run2"
