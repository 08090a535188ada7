#!/usr/bin/env bash
# Device groups over PoCL-R against the same device used locally.
# SPDX-License-Identifier: MIT
#
# The results: docs/design/multidevice.md.
#
# As root, after CI's trixie step has made its Debian 13 root and built
# libclwarp in it (the poclr step's PoCL-R build is reused, or made):
#
#   bash bench/run-poclr-bench.sh [-m MIN_LOG2] [-M MAX_LOG2] [-s SORT_MAX_LOG2]
#                                 [-r REPS] [-R ROUNDS] [-t THREADS]
#
# Sizes 2^MIN_LOG2 .. 2^MAX_LOG2 by factors of 4 (default 2^16 .. 2^24), the
# sort only up to 2^SORT_MAX_LOG2 (default 2^20: on this 2-core machine it
# took 6.7 s a call at 2^22), REPS timed runs of each call (default 5),
# the whole comparison ROUNDS times (default 3).
# -t: POCL_MAX_PTHREAD_COUNT for every device, local and remote (default:
# PoCL's own, a worker thread per core and device).  On a shared CPU the
# sort's look-back spins when a worker thread is descheduled
# (docs/design/cpu-sort.md), which swamps what the
# network costs; -t 1 takes that out.
# (CLWARP_CI_WORK and CLWARP_CI_TRIXIE_ROOT pick the root, as for .ci/run.)
# Each round runs bench/group-bench twice in the root, on devices 0:0,0:1
# each time, with the same arguments and the local warp backend:
#
#   local   the root's PoCL 6.0 directly, POCL_DEVICES="cpu cpu": two CPU
#           devices in the benchmark's own process
#   remote  PoCL-R: the two pocld servers of .ci/poclr.sh, each in its
#           network namespace serving the root's PoCL 6.0 CPU device, the
#           benchmark in the client namespace; -N eth0 counts its bytes
#
# then it prints one table: the medians, remote / local, and the bytes on
# the network per call.  Every "host" is this machine, so this measures what
# PoCL-R's protocol and copies cost, not a real network's latency or
# bandwidth.  The servers, the namespaces and the root's mounts are gone
# when it ends, however it ends (.ci/poclr.sh's functions do all of it).
set -euo pipefail

min_log2=16 max_log2=24 sort_max_log2=20 reps=5 threads='' rounds=3
while getopts m:M:s:r:t:R:h opt; do
	case $opt in
	m) min_log2=$OPTARG ;;
	M) max_log2=$OPTARG ;;
	s) sort_max_log2=$OPTARG ;;
	r) reps=$OPTARG ;;
	t) threads=$OPTARG ;;
	R) rounds=$OPTARG ;;
	*) echo "usage: bash bench/run-poclr-bench.sh [-m MIN_LOG2] [-M MAX_LOG2] [-s SORT_MAX_LOG2] [-r REPS] [-R ROUNDS] [-t THREADS]" >&2
	   [[ $opt == h ]] && exit 0 || exit 2 ;;
	esac
done

# .ci/run defines the root's and the step's functions when sourced (and
# cds to the repository's root).
# shellcheck source=.ci/run
. "$(dirname "${BASH_SOURCE[0]}")/../.ci/run"

readonly BENCH_LIMIT=1800   # one group-bench run (seconds)

if [[ $(id -u) != 0 ]]; then
	echo "run-poclr-bench: needs root (chroot, network namespaces)" >&2
	exit 1
fi
if [[ ! -x $TRIXIE_ROOT/src/build/bench/group-bench ]]; then
	echo "run-poclr-bench: no $TRIXIE_ROOT/src/build/bench/group-bench: run CI's trixie step first" >&2
	exit 1
fi

pocl_env=() threads_said="PoCL default threads"
if [[ -n $threads ]]; then
	pocl_env=("POCL_MAX_PTHREAD_COUNT=$threads")
	threads_said="POCL_MAX_PTHREAD_COUNT=$threads"
fi
POCLR_SERVER_ENV=("${pocl_env[@]}")

trap 'poclr_netns_down; unmount_all' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
unmount_stale
poclr_netns_down   # a killed run's leftovers
mount_root_fs
poclr_build
poclr_netns_up >/dev/null
rm -rf "$TRIXIE_ROOT/tmp/clwarp-poclr-c" "${TRIXIE_ROOT:?}$POCLR_SERVER_CACHE"
mkdir -p "$TRIXIE_ROOT/tmp/clwarp-poclr-c"
poclr_start_server 1
poclr_start_server 2
poclr_wait_server 1
poclr_wait_server 2

args=(-d "0:0,0:1" -m "$min_log2" -M "$max_log2" -s "$sort_max_log2" -r "$reps")
# The same kernels on both sides: through PoCL-R the automatic backend is
# local (khr is refused, docs/multidevice.md), on PoCL 6.0 directly khr.
env_both=(CLWARP_BACKEND=local)
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), $(nproc) cores: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "# group-bench ${args[*]}; ${env_both[*]}; $threads_said; $rounds rounds"

# bench_local OUT / bench_remote OUT: one group-bench run each.
bench_local() {
	# Caches of its own, fresh at the start as the client's are.
	timeout -k 5 "$BENCH_LIMIT" chroot "$TRIXIE_ROOT" "${ROOT_ENV[@]}" \
		OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd POCL_DEVICES="cpu cpu" "${pocl_env[@]}" \
		POCL_CACHE_DIR=/tmp/clwarp-poclr-c/local-pocl CLWARP_CACHE_DIR=/tmp/clwarp-poclr-c/local-clwarp \
		"${env_both[@]}" sh -c 'cd /src && exec build/bench/group-bench "$@"' group-bench "${args[@]}" >"$1" 2>&1
}
bench_remote() {
	poclr_watched "$1" "$BENCH_LIMIT" env "${env_both[@]}" build/bench/group-bench "${args[@]}" -N eth0
}

# Rounds, local first in odd ones and remote first in even ones, so that
# neither side always runs on the same stretch of a changing load.
outs=()
for ((round = 1; round <= rounds; round++)); do
	sides=(local remote)
	((round % 2)) || sides=(remote local)
	for side in "${sides[@]}"; do
		out=$WORK/poclr-bench-$side-$round.txt
		t=$SECONDS
		"bench_$side" "$out" || { cat "$out" >&2; echo "run-poclr-bench: round $round, $side failed" >&2; exit 1; }
		echo "# round $round $side: $((SECONDS - t)) s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
		outs+=("$side=$out")
	done
done
grep -h '^# group-bench:' "$WORK/poclr-bench-local-1.txt" | sed 's/^# group-bench:/# local: /'
grep -h '^# group-bench:' "$WORK/poclr-bench-remote-1.txt" | sed 's/^# group-bench:/# remote:/'

# One row per call and size: medians over the rounds; each remote/local
# ratio is taken within a round, then its median and (min-max) are given.
python3 - "${outs[@]}" <<'PY'
import re, statistics, sys

runs = {"local": [], "remote": []}
for arg in sys.argv[1:]:
    side, path = arg.split("=", 1)
    rows = {}
    for line in open(path):
        # "OP... 2^K ONE GROUP SPEEDUP [ONE_B GROUP_B]"
        m = re.match(r"(\S.*?)\s+(2\^\d+)\s+(.*)$", line)
        if m and not line.startswith("#"):
            rows[(m.group(1), m.group(2))] = [float(v) for v in m.group(3).split()]
    runs[side].append(rows)

med = statistics.median
def ratio(col, key):
    r = [rem[key][col] / loc[key][col] for loc, rem in zip(runs["local"], runs["remote"])]
    return f"{med(r):.2f} ({min(r):.2f}-{max(r):.2f})"

print("| call | n | local one ms | remote one ms | remote/local | local group ms | remote group ms"
      " | remote/local | remote one B/call | remote group B/call |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for key in runs["local"][0]:
    loc = lambda c: med(r[key][c] for r in runs["local"])
    rem = lambda c: med(r[key][c] for r in runs["remote"])
    print(f"| {key[0]} | {key[1]} | {loc(0):.3f} | {rem(0):.3f} | {ratio(0, key)} | {loc(1):.3f}"
          f" | {rem(1):.3f} | {ratio(1, key)} | {rem(3):.0f} | {rem(4):.0f} |")
PY
