#!/usr/bin/env bash
# Times `./dev demo` as a newcomer meets it: a fresh Debian (debootstrap --variant=minbase, no compiler, no CMake,
# no Boost), a clean clone of this repository's HEAD, `./dev demo` from there until the table is printed, package
# installation included (docs/testing.md#demo). Needs root and the network to a Debian mirror; the chroot is kept
# between runs in ROOTFS (the demo's packages are purged before each run, so each one installs them again).
#
#   tools/dev/time_fresh_demo.sh [ROOTFS, default /tmp/spotsim-fresh-root]
#
# Prints "demo: N s (packages and configure P s, build and run B s)" and exits with the demo's status.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
root=${1:-/tmp/spotsim-fresh-root}
[ "$(id -u)" -eq 0 ] || { echo "time_fresh_demo: run as root (debootstrap and chroot)" >&2; exit 2; }
if [ ! -x "$root/bin/bash" ]; then
  command -v debootstrap >/dev/null || apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
for m in proc dev dev/pts sys; do
  mountpoint -q "$root/$m" || mount --bind "/$m" "$root/$m"
done
trap 'for m in sys dev/pts dev proc; do umount "$root/$m" 2>/dev/null || true; done' EXIT
# The packages ./dev demo installs, purged so that the run installs them as on a fresh machine.
demo_packages=$(sed -n '/^DEMO_PACKAGES=(/,/)/p' "$repo/dev" | tr -d '()\\' | sed 's/DEMO_PACKAGES=//' | tr '\n' ' ')
chroot "$root" /bin/bash -c "export DEBIAN_FRONTEND=noninteractive; apt-get purge -y -qq $demo_packages >/dev/null 2>&1 || true;
  apt-get autoremove --purge -y -qq >/dev/null 2>&1; apt-get clean"
rm -rf "$root/root/spotsim"
git clone -q "$repo" "$root/root/spotsim"
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c '
  cd /root/spotsim
  start=$(date +%s.%N)
  set +e
  ./dev demo 2>&1 | while IFS= read -r line; do
    # The first "[  N%] " line of the build (quoted brackets: literal, not a bracket pattern) ends setup and configure.
    if [[ $line == "["*"%] "* ]] && [ ! -f /root/packages_done ]; then date +%s.%N > /root/packages_done; fi
    printf "%s\n" "$line"
  done > /root/demo.out
  status=${PIPESTATUS[0]}
  end=$(date +%s.%N)
  packages=$(cat /root/packages_done 2>/dev/null || echo "$start"); rm -f /root/packages_done
  grep -q "^cost, total" /root/demo.out || status=1
  awk -v s="$start" -v p="$packages" -v e="$end" "BEGIN { printf \"demo: %.0f s (packages and configure %.0f s, build and run %.0f s)\n\", e - s, p - s, e - p }"
  exit $status'
