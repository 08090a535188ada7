#!/usr/bin/env bash
# The GPU check: everything libclwarp promises, on the GPU machine (NVIDIA's
# OpenCL and its PoCL), in one command, under 8 minutes on an H100:
#
#   source .device/opencl-env.sh && bash tools/gpu-check.sh
#
# Parts (each a `meson test` run; docs/gpu-status.md records the last check):
#   nv             the whole suite on the GPU with nothing set (default backend)
#                  (its group suites on the first GPU and the first CPU device)
#   threads-nv     test-threads 5 times in a row on the GPU
#   stress         the look-back stress test, 10^4 calls, without and with
#   stress-naps    the run-length naps
#   local          the warp and algorithm suites on the GPU with CLWARP_BACKEND=local
#   threads-local  test-threads 5 times in a row, local backend on the GPU
#   pocl           the whole suite on the machine's PoCL (CLWARP_DEVICE=cpu,
#                  quick sizes, torture left out)
# All but nv run beside it: the stress runs in nv's build folder, the local
# and threads parts and pocl each in a build folder of their own (their own
# disk cache and temporary files). The kernels/examples files
# run with --check in the `examples` suite of nv, local and pocl.
#
# Ends with one line "N passed, M failed, K skipped" (meson's tests); exit 1
# when anything failed or was skipped. Logs: build-gpu*/meson-logs/PART.txt.
# Knobs: CLWARP_GPU_CHECK_PARTS="nv stress" (default: all).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly GPU_BUILD=build-gpu LOCAL_BUILD=build-gpu-local CPU_BUILD=build-gpu-cpu
readonly PARTS=${CLWARP_GPU_CHECK_PARTS:-nv threads-nv stress stress-naps local threads-local pocl}
declare -A RESULT=()

wanted() { [[ " $PARTS " == *" $1 "* ]]; }

configure() {
	[[ -f $1/build.ninja ]] || meson setup "$1" -Dexamples=true >"$1.setup.log" 2>&1 ||
		{ tail -30 "$1.setup.log"; return 1; }
	ninja -C "$1" >"$1.ninja.log" 2>&1 || { tail -30 "$1.ninja.log"; return 1; }
}

# part NAME BUILD [ENV=VALUE...] -- [meson test arguments]
part() {
	local name=$1 build=$2 start=$SECONDS
	local -a envs=()
	shift 2
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" meson test -C "$build" --setup full --no-rebuild --print-errorlogs \
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

# background BUILD FUNCTION [ARGS]: FUNCTION's parts in the background, their
# "part NAME: ..." lines in BUILD.FUNCTION.log.
background() {
	local build=$1
	shift
	( configure "$build" || { echo "part $build: 0 passed, 1 failed, 0 skipped (no build)"; exit; }
	  "$@" ) >"$build.$1.log" 2>&1 &
	BACKGROUND+=("$build.$1.log")
}

local_parts() {
	wanted local && part local "$LOCAL_BUILD" CLWARP_BACKEND=local -- --num-processes 4 \
		warp warp-ops warp-sort cuda algorithms sort runs histogram examples
	wanted threads-local && part threads-local "$LOCAL_BUILD" CLWARP_BACKEND=local -- --repeat 5 threads
	wanted threads-nv && part threads-nv "$LOCAL_BUILD" -- --repeat 5 threads
}

stress_part() {
	part stress "$GPU_BUILD" CLWARP_STRESS_CALLS=10000 -- lookback-stress
}

stress_naps_part() {
	part stress-naps "$GPU_BUILD" CLWARP_STRESS_CALLS=10000 \
		CLWARP_ALGO_TUNING=runs_wait=1150,runs_poll=76 -- lookback-stress
}

main() {
	local start=$SECONDS log line
	BACKGROUND=()
	echo "GPU check of ${CLWARP_GPU_CHECK_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)} on" \
		"$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
	configure "$GPU_BUILD" || { echo "0 passed, 1 failed"; exit 1; }
	{ wanted local || wanted threads-local || wanted threads-nv; } && background "$LOCAL_BUILD" local_parts
	wanted stress && background "$GPU_BUILD" stress_part
	wanted stress-naps && background "$GPU_BUILD" stress_naps_part
	wanted pocl && background "$CPU_BUILD" part pocl "$CPU_BUILD" CLWARP_DEVICE=cpu CLWARP_TEST_QUICK=1 -- \
		--no-suite torture --num-processes 8
	wanted nv && part nv "$GPU_BUILD" -- --num-processes 8
	wait
	for log in "${BACKGROUND[@]}"; do
		cat "$log"
		while read -r line; do
			RESULT[${line%%:*}]=${line#*: }
		done < <(sed -n 's/^.*part \([a-z-]*: \)/\1/p' "$log")
	done

	for name in $PARTS; do
		[[ -n ${RESULT[$name]:-} ]] || RESULT[$name]="0 passed, 1 failed, 0 skipped (no result)"
	done
	local passed=0 failed=0 skipped=0 p f s name
	echo "---- GPU check: $((SECONDS - start)) s"
	for name in "${!RESULT[@]}"; do
		echo "  $name: ${RESULT[$name]}"
		read -r p _ f _ s _ <<<"${RESULT[$name]//,/}"
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	done
	python3 tools/gpu-status-page.py "$((SECONDS - start))" \
		"${CLWARP_GPU_CHECK_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" \
		"$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" \
		"$PARTS" "$GPU_BUILD" "$LOCAL_BUILD" "$CPU_BUILD" >"$GPU_BUILD/gpu-status.md"
	echo "(the text for docs/gpu-status.md: $GPU_BUILD/gpu-status.md)"
	echo "$passed passed, $failed failed, $skipped skipped"
	((failed == 0 && skipped == 0))
}

main "$@"
