#!/usr/bin/env bash
# The GPU check: everything libclwarp promises, on the GPU machine (NVIDIA's
# OpenCL and its PoCL), in one command: about 7.5 minutes on an H200
# machine with 16 cores, 10-11 on an H100 one (where one call may not run
# that long, run the parts in two calls with CLWARP_GPU_CHECK_PARTS, `local`
# in the second). With NVIDIA's OpenCL and PoCL on the loader's path:
#
#   bash tools/gpu-check.sh
#
# What it runs (docs/status.md shows the last check of each part):
#   nv-*           the whole suite on the GPU with nothing set (default
#                  backend; its group suites on the first GPU and the first
#                  CPU device), in four parts: nv-engine, nv-tools and
#                  nv-torture name their tests, nv-kernels runs every other
#                  test, so a new test lands there by itself
#   threads-nv     test-threads 5 times in a row on the GPU
#   stress-*       the look-back stress test, 10^4 calls (0..4999 and
#   stress-naps-*  5000..9999 of one seed, side by side), without and with
#                  the run-length naps
#   local          the warp and algorithm suites on the GPU with
#   local-examples CLWARP_BACKEND=local
#   threads-local  test-threads 5 times in a row, local backend on the GPU
#   pocl-*         the whole suite on the machine's PoCL (CLWARP_DEVICE=cpu,
#                  quick sizes, torture left out), in three parts like nv's
# Every part runs `meson test --setup full` (no quick sizes on NVIDIA); the
# pocl parts' CLWARP_TEST_QUICK=1 wins over the setup there. The
# kernels/examples files run with --check in the examples suite of the nv,
# local and pocl parts.
#
# Why so many parts: most suites run one test at a time (is_parallel: false,
# for CI's 2 cores), which made the whole suite take 480 s on the GPU alone.
# Here the parts run side by side, each in lanes of the one build folder,
# each part with a disk cache and temporary folder of its own, so the
# 16 cores bound the check (about 5000 CPU seconds).
#
# Ends with one line "N passed, M failed, K skipped" (meson's tests); exit 1
# when anything failed or was skipped. Logs: build-gpu/meson-logs/PART.txt.
# Records each part's tests in docs/status/gpu-check.json (the parts run
# replace theirs; tools/gpu-check-summary.py) and makes docs/status.md
# again from it (tools/status-page.py): commit both.
# Knob: CLWARP_GPU_CHECK_PARTS="nv-kernels stress-0" (default: all parts).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly BUILD=build-gpu
readonly ALL_PARTS="nv-kernels nv-engine nv-tools nv-torture threads-nv
	stress-0 stress-5000 stress-naps-0 stress-naps-5000
	local local-examples threads-local pocl-kernels pocl-engine pocl-tools"
readonly PARTS=$(echo ${CLWARP_GPU_CHECK_PARTS:-$ALL_PARTS})

# The named parts' tests; the *-kernels parts run the rest.
readonly ENGINE_TESTS="engine program launch width cache cache-trust buildmemo copies bad-input threads examples-c"
readonly TOOLS_TESTS="cli examples group group-algorithms group-sort"
readonly LOCAL_TESTS="warp warp-ops warp-sort cuda algorithms sort runs histogram"
readonly NAPS=runs_wait=1150,runs_poll=76

wanted() { [[ " $PARTS " == *" $1 "* ]]; }

configure() {
	local start=$SECONDS
	[[ -f $BUILD/build.ninja ]] || meson setup "$BUILD" -Dexamples=true >"$BUILD.setup.log" 2>&1 ||
		{ tail -30 "$BUILD.setup.log"; return 1; }
	ninja -C "$BUILD" >"$BUILD.ninja.log" 2>&1 || { tail -30 "$BUILD.ninja.log"; return 1; }
	echo "built $BUILD in $((SECONDS - start)) s"
}

# Every test of the suite but those named (fails when none is left).
tests_except() {
	meson introspect "$BUILD" --tests | python3 -c '
import json, sys
rest = [t["name"] for t in json.load(sys.stdin) if t["name"] not in sys.argv[1:]]
print(" ".join(rest))
sys.exit(0 if rest else 1)' "$@"
}

# part NAME [ENV=VALUE...] -- [meson test arguments]: one meson test run
# with its own disk cache and temporary folder (parts run side by side).
part() {
	local name=$1 start=$SECONDS scratch=$BUILD/gpu-check/$1 log
	local -a envs=()
	shift
	wanted "$name" || return 0
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	rm -rf "$scratch" && mkdir -p "$scratch/cache" "$scratch/tmp"
	# The CPU seconds tell which part crowds the 16 cores (the check's limit).
	local TIMEFORMAT="%U s user, %S s system"
	{ time env "${envs[@]}" meson test -C "$BUILD" --setup full --no-rebuild --print-errorlogs --logbase "$name" \
		--wrapper "env CLWARP_CACHE_DIR=$PWD/$scratch/cache CLWARP_TEST_TMPDIR=$PWD/$scratch/tmp" \
		"$@" >"$BUILD/meson-logs/$name.out" 2>&1; } 2>"$BUILD/meson-logs/$name.cpu"
	# meson names the logs of a wrapped run NAME-env.* (of a setup, NAME-full.*)
	for log in "$BUILD/meson-logs/$name-env".* "$BUILD/meson-logs/$name-full".*; do
		[[ -e $log ]] && mv -f "$log" "$BUILD/meson-logs/$name.${log##*.}"
	done
	echo "part $name: $(summarize "$BUILD/meson-logs/$name.json") ($((SECONDS - start)) s)"
	echo "cpu $name: $(cat "$BUILD/meson-logs/$name.cpu")"
	grep -E "^ *[0-9]+/[0-9]+ .*(FAIL|ERROR|TIMEOUT|SKIP|INTERRUPT)" "$BUILD/meson-logs/$name.out"
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

# lane NAME COMMAND...: a sequence of parts in the background, its output in
# $BUILD/gpu-check/NAME.log.
lane() {
	local name=$1
	shift
	mkdir -p "$BUILD/gpu-check"
	( eval "$@" ) >"$BUILD/gpu-check/$name.log" 2>&1 &
	LANES+=("$BUILD/gpu-check/$name.log")
}

# stress NAME FIRST CALLS [ENV=VALUE...]: calls FIRST..CALLS-1 of the stress seed.
stress() {
	local name=$1 first=$2 calls=$3
	shift 3
	part "$name" CLWARP_STRESS_FIRST="$first" CLWARP_STRESS_CALLS="$calls" "$@" -- lookback-stress
}

# checked_source: the commit under test. Where the tree built differs from
# it (uncommitted or untracked files, as when the device machine is sent a
# working tree), it names that tree too, so the check can be matched to a
# commit by `git rev-parse COMMIT^{tree}`.
checked_source() {
	local head tree index
	head=$(git rev-parse --short HEAD 2>/dev/null) || { echo "unknown (not a git tree)"; return; }
	index=$(mktemp)
	cp "$(git rev-parse --git-path index)" "$index"
	tree=$(GIT_INDEX_FILE=$index git add -A 2>/dev/null &&
		GIT_INDEX_FILE=$index git write-tree)
	rm -f "$index"
	if [[ $tree == "$(git rev-parse 'HEAD^{tree}')" ]]; then
		echo "$head"
	else
		echo "$head with changes: tree ${tree:0:12}"
	fi
}

main() {
	local start=$SECONDS log line name
	local -A result=()
	local source=${CLWARP_GPU_CHECK_COMMIT:-$(checked_source)}
	LANES=()
	echo "GPU check of $source on" \
		"$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
	configure || { echo "0 passed, 1 failed"; exit 1; }
	# An empty list would make meson run every test.
	REST=$(tests_except $ENGINE_TESTS $TOOLS_TESTS torture) || { echo "0 passed, 1 failed (no test list)"; exit 1; }

	lane nv-kernels 'part nv-kernels -- --num-processes 8 $REST'
	lane nv-engine 'part nv-engine -- $ENGINE_TESTS'
	lane nv-tools 'part nv-tools -- $TOOLS_TESTS'
	lane nv-torture 'part nv-torture -- torture; part threads-nv -- --repeat 5 threads'
	lane stress-0 'stress stress-0 0 5000'
	lane stress-5000 'stress stress-5000 5000 10000'
	lane stress-naps-0 'stress stress-naps-0 0 5000 CLWARP_ALGO_TUNING=$NAPS'
	lane stress-naps-5000 'stress stress-naps-5000 5000 10000 CLWARP_ALGO_TUNING=$NAPS'
	lane local 'part local CLWARP_BACKEND=local -- --num-processes 8 $LOCAL_TESTS'
	lane local-examples 'part local-examples CLWARP_BACKEND=local -- examples;
		part threads-local CLWARP_BACKEND=local -- --repeat 5 threads'
	lane pocl-kernels 'part pocl-kernels CLWARP_DEVICE=cpu CLWARP_TEST_QUICK=1 -- --num-processes 8 $REST'
	lane pocl-engine 'part pocl-engine CLWARP_DEVICE=cpu CLWARP_TEST_QUICK=1 -- $ENGINE_TESTS'
	lane pocl-tools 'part pocl-tools CLWARP_DEVICE=cpu CLWARP_TEST_QUICK=1 -- $TOOLS_TESTS'
	wait
	for log in "${LANES[@]}"; do
		cat "$log"
		while read -r line; do
			result[${line%%:*}]=${line#*: }
		done < <(sed -n 's/^part \([a-z0-9-]*: \)/\1/p' "$log")
	done

	local passed=0 failed=0 skipped=0 p f s
	echo "---- GPU check: $((SECONDS - start)) s"
	for name in $PARTS; do
		[[ -n ${result[$name]:-} ]] || result[$name]="0 passed, 1 failed, 0 skipped (no result)"
		echo "  $name: ${result[$name]}"
		read -r p _ f _ s _ <<<"${result[$name]//,/}"
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	done
	python3 tools/gpu-check-summary.py docs/status/gpu-check.json "$((SECONDS - start))" \
		"$source" \
		"$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" \
		"$PARTS" "$BUILD"
	python3 tools/status-page.py && echo "(recorded: docs/status/gpu-check.json, docs/status.md)"
	echo "$passed passed, $failed failed, $skipped skipped"
	((failed == 0 && skipped == 0))
}

main "$@"
