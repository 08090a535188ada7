# shellcheck shell=bash
# The "poclr" step of .ci/run, which sources this file (it uses .ci/run's
# TRIXIE_ROOT, WORK, ROOT_ENV, MOUNTS, mount_root_fs, unmount_all and
# unmount_stale).
#
# libclwarp against two PoCL-R servers (PoCL 6.0's remote driver,
# docs/multidevice.md)
# on a private network of network namespaces, all inside the Debian 13 root
# of the trixie step:
#
#   namespace           address          runs
#   clwarp-poclr-s1     10.77.0.11/24    pocld, serving the root's PoCL 6.0 CPU device
#   clwarp-poclr-s2     10.77.0.12/24    pocld, the same
#   clwarp-poclr-c      10.77.0.1/24     the client: clwarp-run, with only
#                                        PoCL-R's client library as OpenCL
#   clwarp-poclr-sw     (none)           the bridge that joins the three
#                                        (the servers also reach each other,
#                                        as PoCL-R's peer connections need)
#
# Each host has one veth (eth0) whose other end is a port of the bridge; the
# veths are made inside the namespaces, so nothing appears on the host's
# network and nothing but these addresses is ever used.  Every server
# listens on 17777 (commands), 17778 (bulk data) and 17779 (peers).
#
# The client sees platform 0 = PoCL-R with device 0:0 = server 1 and device
# 0:1 = server 2 (POCL_DEVICES="remote remote", POCL_REMOTEn_PARAMETERS
# = ADDRESS:PORT/DEVICE, PoCL 6.0's doc/sphinx/source/remote.rst).

readonly POCLR_PREFIX=/opt/poclr          # inside the root
readonly POCLR_NS=clwarp-poclr            # namespace name prefix
readonly POCLR_NET=10.77.0                # a /24 of our own, inside the namespaces only
readonly POCLR_CLIENT_ADDR=$POCLR_NET.1
readonly POCLR_SERVER_ADDRS=("$POCLR_NET.11" "$POCLR_NET.12")
readonly POCLR_PORT=17777                 # pocld also takes PORT+1 and PORT+2
readonly POCLR_SERVER_CACHE=/tmp/clwarp-poclr-servers   # inside the root (poclr_start_server)

# Time limits (seconds).  Every command that talks to the network or to a
# server runs under timeout(1), so a dead server or a lost mirror ends the
# step instead of hanging it.
readonly POCLR_SERVER_LIMIT=1200   # a server's whole life (the trap stops it long before)
readonly POCLR_START_LIMIT=30      # from start to listening on its three ports
readonly POCLR_LIST_LIMIT=120      # clwarp-run --list-devices (runs the backend probe on both)
readonly POCLR_EXAMPLE_LIMIT=60    # one example on one device (about 2 s)

POCLR_SERVER_PIDS=()   # the servers' timeout(1) processes, pocld their only child
POCLR_SERVER_ENV=()    # more VAR=VALUE for the servers (bench/run-poclr-bench.sh); CI sets none

# The build, the network and servers, and the tests beyond the examples,
# by concern (.ci/lib/).
# shellcheck source=.ci/lib/poclr-build.sh
. "$SRC/.ci/lib/poclr-build.sh"
# shellcheck source=.ci/lib/poclr-net.sh
. "$SRC/.ci/lib/poclr-net.sh"
# shellcheck source=.ci/lib/poclr-tests.sh
. "$SRC/.ci/lib/poclr-tests.sh"

# ---- The step ----------------------------------------------------------------
step_poclr() {
	# On a 2-core machine shared with other work (load average about 3):
	# 124 s from a fresh root (PoCL-R's packages 16 s, its build
	# 78 s, the run 30 s; 119 s of CPU), 28 s with the build cached (the 40
	# examples 26 s).  At load average 7 to 10 the examples took 46 to 84 s.
	#
	# This runs in run_step's subshell: the trap is this step's own and
	# fires however the step ends (failure, signal, or success): servers,
	# namespaces, then the root's mounts.
	trap 'poclr_netns_down; unmount_all' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	unmount_stale
	poclr_netns_down   # a killed run's leftovers
	local stamp=$TRIXIE_ROOT/.clwarp-ci-root
	if [[ ! -f $stamp ]]; then
		echo "no Debian 13 root at $TRIXIE_ROOT: run the trixie step first" >&2
		return 1
	fi
	if [[ ! -x $TRIXIE_ROOT/src/build/tools/clwarp-run ]]; then
		echo "no libclwarp build in $TRIXIE_ROOT/src/build: run the trixie step first" >&2
		return 1
	fi
	mount_root_fs
	local t=$SECONDS
	poclr_build
	echo "PoCL-R build: $((SECONDS - t)) s"
	t=$SECONDS
	poclr_netns_up
	rm -rf "$TRIXIE_ROOT/tmp/clwarp-poclr-c" "${TRIXIE_ROOT:?}$POCLR_SERVER_CACHE"
	poclr_start_server 1
	poclr_start_server 2
	poclr_wait_server 1
	poclr_wait_server 2
	echo "network and servers: $((SECONDS - t)) s"
	t=$SECONDS

	# Both devices as the client sees them, with the backend the library
	# chose for each and why it passed over the others (its debug log):
	# the remote device lists cl_khr_subgroups but reports 0 sub-groups per
	# work-group, so the library's own checks decide.  Not pinned: with PoCL-R 6.0
	# it is local (32) on both, khr being refused because
	# clGetKernelSubGroupInfo gives CL_INVALID_OPERATION through PoCL-R
	# and cl_intel_required_subgroup_size is not listed; a PoCL-R that
	# answers would move the examples to khr, which is as good a test.
	local rc=0 devices
	if ! poclr_watched "$WORK/poclr-devices.txt" "$POCLR_LIST_LIMIT" \
		env CLWARP_LOG_LEVEL=debug build/tools/clwarp-run --list-devices; then
		cat "$WORK/poclr-devices.txt" >&2
		echo "clwarp-run --list-devices failed on PoCL-R" >&2
		poclr_server_log 1
		poclr_server_log 2
		return 1
	fi
	devices=$(grep -v '^clwarp: ' "$WORK/poclr-devices.txt" || true)
	echo "$devices"
	grep -E '^clwarp: (debug|info): [a-z]+ backend (skipped|unavailable)' "$WORK/poclr-devices.txt" | sort -u || true
	local dev
	for dev in 0:0 0:1; do
		if ! grep -q "^$dev .*  backend [a-z-]*, warp size" <<<"$devices"; then
			echo "PoCL-R: no backend for device $dev" >&2
			rc=1
		fi
	done
	echo "PoCL-R backends: $(sed -n 's/^\([0-9]*:[0-9]*\) .*  backend \([^,]*\), warp size \([0-9]*\).*/\1=\2(\3)/p' <<<"$devices" | tr '\n' ' ')"
	echo "list-devices: $((SECONDS - t)) s"
	t=$SECONDS

	# Every example on each server; the two devices run side by side, the
	# second in reverse order (poclr_start_server says why).
	local pids=()
	poclr_examples 0:0 >"$WORK/poclr-examples-0:0.out" 2>&1 &
	pids+=($!)
	poclr_examples 0:1 reverse >"$WORK/poclr-examples-0:1.out" 2>&1 &
	pids+=($!)
	local i
	for i in "${!pids[@]}"; do
		wait "${pids[i]}" || rc=1
	done
	cat "$WORK/poclr-examples-0:0.out" "$WORK/poclr-examples-0:1.out"
	echo "examples on PoCL-R: $(find kernels/examples -name '*.cl' | wc -l) per device, $((SECONDS - t)) s"
	t=$SECONDS

	poclr_multidevice 0:0 0:1 || rc=1
	echo "multidevice tests on PoCL-R: $((SECONDS - t)) s"
	t=$SECONDS

	local n
	for n in 1 2; do
		if ! poclr_server_alive "$n"; then
			echo "pocld $n is no longer running" >&2
			rc=1
		fi
	done
	# Last: it kills server 2.
	if ((rc == 0)); then
		poclr_fault || rc=1
		echo "fault test: $((SECONDS - t)) s"
	fi
	if ((rc != 0)); then
		poclr_server_log 1
		poclr_server_log 2
	fi
	return "$rc"
}
