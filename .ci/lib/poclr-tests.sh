# shellcheck shell=bash
# What the "poclr" step runs beyond the examples, which .ci/poclr.sh sources
# (uses lib/poclr-net.sh): the multidevice suite on both remote devices,
# and a server killed mid-call.

# ---- Hook: the multi-device tests -----------------------------------------
# MULTIDEVICE HOOK: poclr_multidevice DEVICE...
#
# step_poclr calls it once, after the examples, with both servers up and the
# two remote devices as arguments: poclr_multidevice 0:0 0:1 (P:D, as
# CLWARP_DEVICES, clwarp-run -d and CLWARP_DEVICE take them; 0:0 is server
# 1, 0:1 server 2).  A non-zero return fails the step.
#
# It runs every test of the multidevice suite (tests/test-group*.c: device
# groups, docs/multidevice.md) with CLWARP_DEVICES naming the two remote
# devices and CLWARP_TEST_QUICK=1, as the trixie step runs them on PoCL
# 6.0.  The binaries run directly, not through meson test: tests/meson.build
# gives the suite POCL_DEVICES="pthread pthread" (two local CPU devices),
# which would replace the client's "remote remote".  poclr_watched runs each
# in the client namespace, inside the root, in /src (where the trixie step
# built them), with PoCL-R as the only OpenCL platform, under a time limit,
# and stops it if a server dies.
#
# On unless CLWARP_CI_POCLR_MULTIDEVICE=0 (to save time by hand).  On
# 2 cores shared with other jobs, test-group took 48 s in this
# step at load average 3 (it has since been split into test-group and
# test-group-algorithms), test-group-sort 60 s by hand at load average 6.
readonly POCLR_MULTIDEVICE=${CLWARP_CI_POCLR_MULTIDEVICE:-1}
readonly POCLR_MULTIDEVICE_LIMIT=600   # one test binary
# The checks that cross the network in every way (device lists, builds,
# a warp kernel launched across both, scatter/gather, reduce and scans with
# their carries, compaction, the sort's exchange, errors naming a device);
# the rest of the suite (splits, rows, the sort's type matrix, time limits)
# is device-independent host logic that PoCL 3.1 and 6.0 cover.  The whole
# suite took 177 s here at load average 7 to 10.
readonly POCLR_MULTIDEVICE_CHECKS=test_devices,test_launch,test_reduce_scan,test_compact,test_errors,test_group_sort_patterns,test_group_sort_errors

poclr_multidevice() {
	local devices
	devices=$(IFS=,; echo "$*")
	if [[ $POCLR_MULTIDEVICE != 1 ]]; then
		echo "multidevice: not run (CLWARP_CI_POCLR_MULTIDEVICE=1 runs the suite here with CLWARP_DEVICES=$devices)"
		return 0
	fi
	# The suite's tests, as meson names them: "clwarp:multidevice / group"
	# is build/tests/test-group.
	local names
	names=$(timeout 60 chroot "$TRIXIE_ROOT" "${ROOT_ENV[@]}" \
		sh -c 'cd /src && meson test -C build --no-rebuild --list --suite multidevice 2>/dev/null' |
		sed -n 's|^[^ ]* / ||p' || true)
	if [[ -z $names ]]; then
		echo "multidevice: no multidevice suite in $TRIXIE_ROOT/src/build" >&2
		return 1
	fi
	local rc=0 name t log
	for name in $names; do
		t=$SECONDS
		log=$WORK/poclr-test-$name.txt
		if poclr_watched "$log" "$POCLR_MULTIDEVICE_LIMIT" \
			env CLWARP_DEVICES="$devices" CLWARP_TEST_QUICK=1 CLWARP_TEST_ONLY="$POCLR_MULTIDEVICE_CHECKS" \
			"build/tests/test-$name"; then
			echo "multidevice $name on $devices: $(tail -n 1 "$log"), $((SECONDS - t)) s"
		else
			cat "$log" >&2
			echo "multidevice $name on $devices: FAILED, $((SECONDS - t)) s" >&2
			rc=1
		fi
	done
	return "$rc"
}

# ---- Faults: a server that dies mid-job -------------------------------------
# tests/group-fault runs checked group reduces on both remote devices; once
# its first call has passed (it creates READY), pocld 2 is killed with
# SIGKILL, as a crash would end it.  group-fault must then get an error
# naming device 1 (0:1, server 2), must not have seen a wrong sum, and
# device 0 must still give the right one, through the group and as a plain
# engine (tests/group-fault.c).  Runs last: server 2 is gone after it.
#
# The live device answers because of poclr-peer-loss.patch: unpatched,
# pocld 1 ended this client's session when its peer connection to pocld 2
# broke, and device 0 timed out as well (3 of 3 runs, 4 of 4
# while finding the cause; patched, 9 of 9 passed, each 10.0-10.1 s after
# the kill; docs/multidevice.md, "Limits").
readonly POCLR_FAULT_LIMIT=180

poclr_fault() {
	local ready=/tmp/clwarp-poclr-c/fault-ready out=$WORK/poclr-fault.txt pid rc=0 i victim
	mkdir -p "$TRIXIE_ROOT/tmp/clwarp-poclr-c"
	rm -f "$TRIXIE_ROOT$ready"
	poclr_client_argv "$POCLR_FAULT_LIMIT"
	"${POCLR_ARGV[@]}" env CLWARP_DEVICES=0:0,0:1 build/tests/group-fault "$ready" 1 >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < 600; i++)); do   # up to 60 s for the first good call
		[[ -e $TRIXIE_ROOT$ready ]] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if [[ ! -e $TRIXIE_ROOT$ready ]]; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		cat "$out" >&2
		echo "fault: group-fault never got through its first call" >&2
		return 1
	fi
	local t=$SECONDS
	for victim in $(ip netns pids "$POCLR_NS-s2" 2>/dev/null); do
		kill -KILL "$victim" 2>/dev/null || true
	done
	wait "$pid" || rc=$?
	cat "$out"
	echo "fault: group-fault ended $((SECONDS - t)) s after pocld 2 was killed, exit $rc"
	# Server 1 to a new client as well: losing its peer must not have
	# harmed the server for anyone else.
	local alone=$WORK/poclr-fault-alone.txt
	if timeout -k 5 60 ip netns exec "$POCLR_NS-c" chroot "$TRIXIE_ROOT" "${ROOT_ENV[@]}" \
		OCL_ICD_VENDORS="$POCLR_PREFIX/vendors" POCL_DEVICES=remote \
		POCL_REMOTE0_PARAMETERS="${POCLR_SERVER_ADDRS[0]}:$POCLR_PORT/0" \
		POCL_CACHE_DIR=/tmp/clwarp-poclr-c/pocl CLWARP_CACHE_DIR=/tmp/clwarp-poclr-c/clwarp-alone \
		sh -c 'cd /src && exec build/tools/clwarp-run -q --check kernels/examples/warp_sum.cl' >"$alone" 2>&1; then
		echo "fault: pocld 1 still serves a new client (warp_sum.cl checked)"
	else
		echo "fault: pocld 1 does not serve a new client either:" >&2
		cat "$alone" >&2
		return 1
	fi
	if ((rc != 0)); then
		((rc == 124 || rc == 137)) && echo "fault: group-fault hung (killed after $POCLR_FAULT_LIMIT s)" >&2
		return 1
	fi
}
