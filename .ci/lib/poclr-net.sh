# shellcheck shell=bash
# PoCL-R's private network for the "poclr" step, which .ci/poclr.sh sources
# (uses its addresses and limits and .ci/run's root): the namespaces, the
# two pocld servers, and commands run as the client.

poclr_all_namespaces() {
	printf '%s\n' "$POCLR_NS-sw" "$POCLR_NS-c" "$POCLR_NS-s1" "$POCLR_NS-s2"
}

ns_exists() {
	[[ -e /run/netns/$1 ]]
}

# ---- Network ---------------------------------------------------------------
poclr_netns_up() {
	local sw=$POCLR_NS-sw host addr i
	ip netns add "$sw"
	ip -n "$sw" link add br0 type bridge
	ip -n "$sw" link set br0 up
	local hosts=(c s1 s2) addrs=("$POCLR_CLIENT_ADDR" "${POCLR_SERVER_ADDRS[@]}")
	for i in "${!hosts[@]}"; do
		host=${hosts[i]}
		addr=${addrs[i]}
		ip netns add "$POCLR_NS-$host"
		ip -n "$POCLR_NS-$host" link set lo up
		# Made in the switch's namespace, one end moved straight into the
		# host's: never a link in the host's own namespace.
		ip -n "$sw" link add "p-$host" type veth peer name eth0 netns "$POCLR_NS-$host"
		ip -n "$sw" link set "p-$host" master br0
		ip -n "$sw" link set "p-$host" up
		ip -n "$POCLR_NS-$host" addr add "$addr/24" dev eth0
		ip -n "$POCLR_NS-$host" link set eth0 up
	done
	for host in "${hosts[@]}"; do
		printf '%-16s %s\n' "$POCLR_NS-$host" "$(ip -n "$POCLR_NS-$host" -br -4 addr show dev eth0)"
	done
}

# Stops our servers, then deletes our namespaces (their veths go with
# them).  Also what cleans up after a run that was killed before its trap
# ran: whatever still runs inside our namespaces is ours.
poclr_netns_down() {
	local pid ns left
	for pid in "${POCLR_SERVER_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	for ns in $(poclr_all_namespaces); do
		ns_exists "$ns" || continue
		for pid in $(ip netns pids "$ns" 2>/dev/null); do
			kill -TERM "$pid" 2>/dev/null || true
		done
	done
	# Up to 5 s to exit, then KILL.
	local tries
	for ((tries = 0; tries < 50; tries++)); do
		left=0
		for pid in "${POCLR_SERVER_PIDS[@]}"; do
			kill -0 "$pid" 2>/dev/null && left=1
		done
		for ns in $(poclr_all_namespaces); do
			ns_exists "$ns" && [[ -n $(ip netns pids "$ns" 2>/dev/null) ]] && left=1
		done
		((left)) || break
		sleep 0.1
	done
	for pid in "${POCLR_SERVER_PIDS[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
	done
	for ns in $(poclr_all_namespaces); do
		ns_exists "$ns" || continue
		for pid in $(ip netns pids "$ns" 2>/dev/null); do
			kill -KILL "$pid" 2>/dev/null || true
		done
	done
	# Reap the servers (children of this shell); wait itself is bounded
	# by the KILL above.
	for pid in "${POCLR_SERVER_PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	POCLR_SERVER_PIDS=()
	for ns in $(poclr_all_namespaces); do
		if ns_exists "$ns"; then
			ip netns del "$ns" || echo "could not delete network namespace $ns" >&2
		fi
	done
}

# ---- Servers ---------------------------------------------------------------
# poclr_start_server N: pocld in namespace sN, on the root's PoCL 6.0 CPU
# device (the vendor file names only PoCL: device 0 of the server, with
# rusticl and Clover out of its list).
#
# The two servers share one PoCL kernel cache (POCLR_SERVER_CACHE, fresh
# every run), and the second device takes the examples in reverse order:
# each kernel is then compiled by LLVM about once instead of twice, the
# other server finding it in the cache (the client still sends every build
# to each server, and each server still loads and runs it).  Both servers
# are the same PoCL in the same root, so a kernel compiled by one is the
# one the other would compile.  On 2 cores, load average 10:
# examples 73 s and 32 s of CPU instead of 127 s and 50 s.
#
# POCLD_ALLOW_CLIENT_RECONNECT=1: pocld keeps a client's session when the
# client disconnects instead of tearing it down.  The teardown runs on
# pocld's one client-socket thread (daemon.cc, "delete VContext") and took
# 3.0 s every time (likely the 3 s poll timeout of the session's reader
# thread, pocld/request_th.cc, which the teardown joins), during which the
# server answers no new client: each clwarp-run after the first waited for
# it (back-to-back runs took 3.0 s each instead of 55 ms).  On
# 2 cores, load average 7 to 9, one step after the other: the examples took
# 175 s without the option, 46 s with it.  The price: the sessions stay
# until the server stops (after 40 runs, pocld had 360 and 650 MB resident
# and 245 threads each).
poclr_start_server() {
	local n=$1 addr=${POCLR_SERVER_ADDRS[$1 - 1]}
	local log=$WORK/poclr-server$n.log
	timeout -k 5 "$POCLR_SERVER_LIMIT" ip netns exec "$POCLR_NS-s$n" \
		chroot "$TRIXIE_ROOT" "${ROOT_ENV[@]}" \
		OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd POCL_CACHE_DIR="$POCLR_SERVER_CACHE" \
		POCLD_ALLOW_CLIENT_RECONNECT=1 "${POCLR_SERVER_ENV[@]}" \
		"$POCLR_PREFIX/bin/pocld" -a "$addr" -p "$POCLR_PORT" >"$log" 2>&1 &
	POCLR_SERVER_PIDS[n - 1]=$!
}

poclr_server_alive() {
	kill -0 "${POCLR_SERVER_PIDS[$1 - 1]}" 2>/dev/null
}

poclr_server_log() {
	echo "---- pocld $1 (${POCLR_SERVER_ADDRS[$1 - 1]}) log, $WORK/poclr-server$1.log:" >&2
	tail -n 40 "$WORK/poclr-server$1.log" >&2 || true
	echo "----" >&2
}

# Waits until server N listens on its three ports (command and stream on
# its address, peers on all addresses), or fails with its log.
poclr_wait_server() {
	local n=$1 addr=${POCLR_SERVER_ADDRS[$1 - 1]} start=$SECONDS listening
	while true; do
		if ! poclr_server_alive "$n"; then
			echo "pocld $n exited before it listened" >&2
			poclr_server_log "$n"
			return 1
		fi
		listening=$(timeout 5 ip netns exec "$POCLR_NS-s$n" ss -Hltn 2>/dev/null | awk '{print $4}')
		if grep -qx "$addr:$POCLR_PORT" <<<"$listening" &&
			grep -qx "$addr:$((POCLR_PORT + 1))" <<<"$listening" &&
			grep -qx "0.0.0.0:$((POCLR_PORT + 2))" <<<"$listening"; then
			echo "pocld $n listening on $addr:$POCLR_PORT-$((POCLR_PORT + 2)) after $((SECONDS - start)) s"
			return 0
		fi
		if ((SECONDS - start >= POCLR_START_LIMIT)); then
			echo "pocld $n not listening on $addr:$POCLR_PORT-$((POCLR_PORT + 2)) after $POCLR_START_LIMIT s; listening: ${listening//$'\n'/ }" >&2
			poclr_server_log "$n"
			return 1
		fi
		sleep 0.2
	done
}

# ---- Client ----------------------------------------------------------------
# poclr_client_argv SECONDS: into POCLR_ARGV, the command that runs a
# COMMAND appended to it in the client namespace, inside the root, in /src,
# with PoCL-R as the only OpenCL platform, for at most SECONDS.  timeout(1)
# comes first, so that $! of it run in the background is timeout itself,
# which passes a TERM on to COMMAND.  libclwarp's and PoCL's caches are
# fresh every run (under /tmp/clwarp-poclr-c), so every kernel is built by
# the servers, as on a first use.
poclr_client_argv() {
	POCLR_ARGV=(timeout -k 5 "$1" ip netns exec "$POCLR_NS-c"
		chroot "$TRIXIE_ROOT" "${ROOT_ENV[@]}"
		OCL_ICD_VENDORS="$POCLR_PREFIX/vendors" POCL_DEVICES="remote remote"
		POCL_REMOTE0_PARAMETERS="${POCLR_SERVER_ADDRS[0]}:$POCLR_PORT/0"
		POCL_REMOTE1_PARAMETERS="${POCLR_SERVER_ADDRS[1]}:$POCLR_PORT/0"
		POCL_CACHE_DIR=/tmp/clwarp-poclr-c/pocl CLWARP_CACHE_DIR=/tmp/clwarp-poclr-c/clwarp
		sh -c 'cd /src && exec "$@"' poclr-client)
}

# poclr_watched OUT SECONDS COMMAND...: COMMAND as a client (above), its
# output in the file OUT, stopped at once when a server dies under it: PoCL-R's
# client keeps trying to reconnect to a dead server until its time limit
# (a client whose server was killed 5 s into its run waited out its whole
# 60 s).  Exit status: the command's, or 125 when a server died.
poclr_watched() {
	local out=$1 pid n
	poclr_client_argv "$2"
	shift 2
	"${POCLR_ARGV[@]}" "$@" >"$out" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		for n in 1 2; do
			if ! poclr_server_alive "$n"; then
				kill -TERM "$pid" 2>/dev/null || true
				wait "$pid" 2>/dev/null || true
				echo "(stopped: pocld $n died)" >>"$out"
				return 125
			fi
		done
		sleep 0.1
	done
	wait "$pid"
}

# poclr_examples DEVICE [reverse]: every example kernel with --check on
# DEVICE (P:D), one after the other (in reverse order if asked); prints one
# line per example, fails if any failed.  Stops at once when a server is
# gone: the remaining examples would only wait for their time limits.
# Each device has a libclwarp disk cache of its own, so every example is
# built from source for it (a shared one would hand the second device the
# first one's binaries, or not, depending on timing).
poclr_examples() {
	local dev=$1 example name out rc=0 status examples
	local cache=/tmp/clwarp-poclr-c/clwarp-${dev/:/-}
	examples=(kernels/examples/*.cl)
	if [[ ${2:-} == reverse ]]; then
		local i reversed=()
		for ((i = ${#examples[@]} - 1; i >= 0; i--)); do
			reversed+=("${examples[i]}")
		done
		examples=("${reversed[@]}")
	fi
	for example in "${examples[@]}"; do
		name=$(basename "$example" .cl)
		local n
		for n in 1 2; do
			if ! poclr_server_alive "$n"; then
				echo "$dev $name: not run, pocld $n is gone" >&2
				return 1
			fi
		done
		status=0
		out=$WORK/poclr-example-$dev.out
		poclr_watched "$out" "$POCLR_EXAMPLE_LIMIT" env CLWARP_CACHE_DIR="$cache" \
			build/tools/clwarp-run -q --check -d "$dev" "$example" || status=$?
		if ((status == 0)); then
			echo "$dev $name: ok"
		else
			rc=1
			((status == 124 || status == 137)) && echo "(timed out after $POCLR_EXAMPLE_LIMIT s)" >>"$out"
			echo "$dev $name: FAILED (exit $status)" >&2
			sed 's/^/    /' "$out" >&2
			((status == 125)) && return 1
		fi
	done
	return "$rc"
}
