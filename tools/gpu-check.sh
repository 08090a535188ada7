#!/usr/bin/env bash
# The GPU check: everything libclwarp promises, on the GPU machine (NVIDIA's
# OpenCL and its PoCL), in one command, under 8 minutes on an H100:
#
#   source .device/opencl-env.sh && bash tools/gpu-check.sh
#
# Parts (each a `meson test` run; docs/gpu-status.md records the last check):
#   nv           the whole suite on the GPU with nothing set (default backend)
#   local        the warp and algorithm suites on the GPU with CLWARP_BACKEND=local
#   threads      test-threads 5 times in a row, nv and local
#   group        the multidevice suites on the GPU and the CPU (CLWARP_DEVICES=gpu,cpu)
#   stress       the look-back stress test, 10^4 calls, with and without the
#                run-length naps
#   pocl         the whole suite on the machine's PoCL (CLWARP_DEVICE=cpu,
#                quick sizes, torture left out), run beside the GPU parts in
#                a build folder of its own
# The kernels/examples files run with --check in the `examples` suite of nv,
# pocl and local.
#
# Ends with one line "N passed, M failed, K skipped" (meson's tests); exit 1
# when anything failed or was skipped. Logs: build-gpu*/meson-logs/PART.txt.
# Knobs: CLWARP_GPU_CHECK_PARTS="nv group" (default: all).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly GPU_BUILD=build-gpu CPU_BUILD=build-gpu-cpu
readonly PARTS=${CLWARP_GPU_CHECK_PARTS:-nv local threads group stress pocl}
declare -A RESULT=()

wanted() { [[ " $PARTS " == *" $1 "* ]]; }

configure() {
	[[ -f $1/build.ninja ]] || meson setup "$1" -Dexamples=true >/dev/null || return 1
	ninja -C "$1" >"$1.ninja.log" 2>&1 || { tail -30 "$1.ninja.log"; return 1; }
}

# part NAME BUILD [ENV=VALUE...] -- [meson test arguments]
part() {
	local name=$1 build=$2 start=$SECONDS
	local -a envs=()
	shift 2
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" meson test -C "$build" --no-rebuild --print-errorlogs \
		--logbase "$name" "$@" >"$build/meson-logs/$name.out" 2>&1
	RESULT[$name]="$(summarize "$build/meson-logs/$name.json") ($((SECONDS - start)) s)"
	echo "part $name: ${RESULT[$name]}"
	grep -E "^ *[0-9]+/[0-9]+ .*(FAIL|ERROR|TIMEOUT|SKIP|INTERRUPT)" "$build/meson-logs/$name.out"
}

# "P passed, F failed, S skipped" of one meson JSON log.
summarize() {
	python3 - "$1" <<'EOF'
import json, sys
counts = {"passed": 0, "failed": 0, "skipped": 0}
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError:
    lines = []
for line in lines:
    r = json.loads(line).get("result")
    counts["passed" if r == "OK" else "skipped" if r == "SKIP" else "failed"] += 1
if not lines:
    counts["failed"] += 1
print("%(passed)d passed, %(failed)d failed, %(skipped)d skipped" % counts)
EOF
}

main() {
	local start=$SECONDS cpu_pid=
	echo "GPU check of $(git rev-parse --short HEAD 2>/dev/null || echo '?') on" \
		"$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
	configure "$GPU_BUILD" || { echo "0 passed, 1 failed"; exit 1; }
	if wanted pocl; then
		# Its own build folder: its own test cache and temporary folders.
		( configure "$CPU_BUILD" &&
		  part pocl "$CPU_BUILD" CLWARP_DEVICE=cpu CLWARP_TEST_QUICK=1 -- \
			--no-suite torture --num-processes 8 ) >"$CPU_BUILD.part.log" 2>&1 &
		cpu_pid=$!
	fi
	wanted nv && part nv "$GPU_BUILD" -- --num-processes 8
	wanted local && part local "$GPU_BUILD" CLWARP_BACKEND=local -- --num-processes 8 \
		warp warp-ops warp-sort cuda algorithms sort runs histogram examples
	if wanted threads; then
		part threads-nv "$GPU_BUILD" -- --repeat 5 threads
		part threads-local "$GPU_BUILD" CLWARP_BACKEND=local -- --repeat 5 threads
	fi
	wanted group && part group "$GPU_BUILD" CLWARP_DEVICES=gpu,cpu -- --suite multidevice
	if wanted stress; then
		part stress "$GPU_BUILD" CLWARP_STRESS_CALLS=10000 -- lookback-stress
		part stress-naps "$GPU_BUILD" CLWARP_STRESS_CALLS=10000 \
			CLWARP_ALGO_TUNING=runs_wait=1150,runs_poll=76 -- lookback-stress
	fi
	if [[ -n $cpu_pid ]]; then
		wait "$cpu_pid"
		cat "$CPU_BUILD.part.log"
		RESULT[pocl]=$(sed -n 's/^part pocl: //p' "$CPU_BUILD.part.log")
		[[ -n ${RESULT[pocl]} ]] || RESULT[pocl]="0 passed, 1 failed, 0 skipped (no result)"
	fi

	local passed=0 failed=0 skipped=0 p f s name
	echo "---- GPU check: $((SECONDS - start)) s"
	for name in "${!RESULT[@]}"; do
		echo "  $name: ${RESULT[$name]}"
		read -r p _ f _ s _ <<<"${RESULT[$name]//,/}"
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	done
	echo "$passed passed, $failed failed, $skipped skipped"
	((failed == 0 && skipped == 0))
}

main "$@"
