# shellcheck shell=bash
# The "oclgrind" step of .ci/run, which sources this file (uses its SRC, WORK
# and lib/common.sh).

# The step functions are called through run_step, which shellcheck cannot
# follow (it would flag every one of them as unreachable).
# shellcheck disable=SC2317

# ---- Oclgrind -------------------------------------------------------------
# Oclgrind exits with the program's status whatever it found, so the verdict
# comes from its messages.  --log sends every Oclgrind message (and nothing
# else) to a file of its own; every report starts with an unindented
# headline ("Invalid write of size 4 at global memory address ...",
# "Write-write data race at local memory address ...", "Uninitialized value
# written to ...", "Work-group divergence detected (barrier)", ...) followed
# by indented detail lines.  So: any unindented non-empty line in that log
# is a report.  The program's own stderr is also searched for the known
# headlines, in case Oclgrind could not open the log and fell back to stderr.
readonly OCLGRIND_OPTS=(--data-races --uninitialized)
readonly OCLGRIND_HEADLINES='^(Invalid (read|write)|(Read-write|Write-write) data race|Uninitiali[sz]ed (value|address)|Work-group divergence|Unaligned address|Oclgrind - OpenCL runtime error|Oclgrind: )'

# oclgrind_reports LOG [STDERR...]: prints the report headlines, exit 0 if any.
oclgrind_reports() {
	local log=$1
	shift
	local found=1
	if [[ -s $log ]] && grep -E '^[^[:space:]]' "$log"; then
		found=0
	fi
	local f
	for f in "$@"; do
		if [[ -s $f ]] && grep -E "$OCLGRIND_HEADLINES" "$f"; then
			found=0
		fi
	done
	return "$found"
}

# Proves the detector above on known-faulty kernels before relying on it.
oclgrind_selftest() {
	local dir=$WORK/oclgrind-selftest
	rm -rf "$dir"
	mkdir -p "$dir"
	gcc -std=c11 -Wall -Werror -o "$dir/selftest" .ci/oclgrind-selftest.c -lOpenCL
	local kernel expect
	for kernel in clean race uninit oob; do
		expect=report
		[[ $kernel == clean ]] && expect=none
		oclgrind "${OCLGRIND_OPTS[@]}" --log "$dir/$kernel.log" \
			"$dir/selftest" "$kernel" 2>"$dir/$kernel.err" >/dev/null
		local got
		if oclgrind_reports "$dir/$kernel.log" "$dir/$kernel.err" >"$dir/$kernel.found"; then
			got=report
		else
			got=none
		fi
		if [[ $got != "$expect" ]]; then
			echo "oclgrind detector self-test: kernel '$kernel' gave '$got', expected '$expect'" >&2
			cat "$dir/$kernel.log" "$dir/$kernel.err" >&2
			return 1
		fi
		printf 'detector self-test: %-6s -> %s (%s)\n' "$kernel" "$got" \
			"$(sort -u "$dir/$kernel.found" | head -n1)"
	done
}

# Every example kernel and every kernel of tests/corpus through
# clwarp-run --sanitize (tools/sanitize.c: the run under Oclgrind with the
# options above, on the local backend; exit 3 on any Oclgrind report, with
# the user's FILE:LINE; it builds without the disk cache), with --check
# where the file has //! expect lines. It replaces the examples' runs under
# oclgrind by hand: the same options, and the corpus too.
# About a second a kernel: 39 files in 39 s on 2 shared cores.
oclgrind_sanitize() {
	local file rc=0 count=0 start=$SECONDS check err=$WORK/oclgrind-sanitize.err
	for file in kernels/examples/*.cl tests/corpus/*.cl; do
		check=()
		if grep -q '^//! expect' "$file"; then
			check=(--check)
		fi
		if ! build/tools/clwarp-run --sanitize "${check[@]}" -q "$file" >/dev/null 2>"$err"; then
			echo "clwarp-run --sanitize${check[*]:+ ${check[*]}} $file failed:" >&2
			cat "$err" >&2
			rc=1
		fi
		count=$((count + 1))
	done
	echo "clwarp-run --sanitize: $count kernels (kernels/examples, tests/corpus) in $((SECONDS - start)) s"
	return "$rc"
}

step_oclgrind() {
	oclgrind_selftest
	if [[ ! -x build/tests/test-warp ]]; then
		echo "build/tests/test-warp was not built" >&2
		return 1
	fi
	local log=$WORK/oclgrind-warp.log
	rm -f "$log" "$log".* "$WORK"/oclgrind-*.out build/meson-logs/oclgrind*
	# meson test runs each suite with the tests' environment (cache and
	# temp folders under build/); --logbase keeps the main run's
	# testlog.txt. The test output (stderr included) lands in
	# build/meson-logs/oclgrind-*.txt (meson adds the wrapper's name).
	# Oclgrind only interprets: give it 3x the test's own timeout.  Not
	# --quick/OCLGRIND_QUICK: it runs only the first and last work-group,
	# so the test's result checks would fail on the groups it skipped.
	# Each suite gets an Oclgrind log of its own ($log.SUITE): a second
	# process would overwrite the first one's.
	#
	# Three chains of separate processes (Oclgrind is not thread-safe
	# within one) run side by side: each spends most of its time in one
	# thread, compiling or interpreting, so on the 2-core CI machine they
	# take about half their sum. --no-rebuild: concurrent meson test calls
	# must not run ninja in the same folder.
	#   algorithms: CLWARP_TEST_QUICK=2, the reduced size matrix less the
	#     sizes that take no kernel path of their own, one type of each
	#     kind and size where a kernel differs by it, the selection
	#     patterns "none" and "all" only from one tile up, and the row
	#     tests on one 4-byte and one 8-byte type (Oclgrind is ~100x
	#     slower: test_partition_reversed took 191 s and the local widths
	#     234 s with every type), its tests split in two halves
	#     (CLWARP_TEST_SHARD, test-algorithms.c);
	#   warp: in full;
	#   warp-ops: every scalar type at widths 1, 4 and W, the first vector
	#     cases (PoCL 3.1 runs the whole matrix on local);
	#   warp-sort: widths 4 and W, one type of each size and signedness
	#     and the float types (CLWARP_TEST_QUICK=2: at width 1 no lane
	#     talks to another; every type took 251 s).
	#   sort: after the first algorithms half, test_sort_small alone
	#     (every path of the sort kernels in a few sorts; Oclgrind takes
	#     about a second per work-group and pass) with tiles of 512 keys
	#     (sort_items=2), so that small data still spans several tiles;
	#     Oclgrind counts as a CPU device, so that is the wait-free
	#     passes, then the same with the look-back passes (sort_lookback=1:
	#     33 s and 24 s by hand).
	#   runs, histogram: after the second algorithms half, their small-size checks (every
	#     kernel path of run-length encode, unique, reduce by key and the
	#     histogram, and the argument errors).
	#   copies, staging: after the warp suites, every test of the
	#     asynchronous and staged copies but those of several host threads
	#     (test_threads, test_race_threads: Oclgrind runs a queue in the
	#     thread that flushes and aborts when two do), staging with one
	#     copy thread (test-staging.c); about 15 s each. A new test there
	#     needs adding to the lists below.
	local rc=0 chains=() chain
	# oclgrind_suite NAME SUITE QUICK [VAR=VALUE...]
	oclgrind_suite() {
		local name=$1 suite=$2 quick=$3
		shift 3
		env CK_FORK=no CLWARP_BACKEND=local CLWARP_TEST_QUICK="$quick" OCLGRIND_MAX_ERRORS=100 "$@" \
			meson test -C build --no-rebuild --print-errorlogs --logbase "oclgrind-$name" \
			--timeout-multiplier 3 \
			--wrapper "oclgrind ${OCLGRIND_OPTS[*]} --log $log.$name" "$suite" \
			>"$WORK/oclgrind-$name.out" 2>&1
	}
	(
		failed=0
		oclgrind_suite algorithms-0 algorithms 2 CLWARP_TEST_SHARD=0/2 || failed=1
		oclgrind_suite sort sort 1 CLWARP_TEST_ONLY=test_sort_errors,test_sort_small \
			CLWARP_ALGO_TUNING=sort_items=2 || failed=1
		oclgrind_suite sort-lookback sort 1 CLWARP_TEST_ONLY=test_sort_small \
			CLWARP_ALGO_TUNING=sort_items=2,sort_lookback=1 || failed=1
		exit "$failed"
	) &
	chains+=($!)
	(
		failed=0
		oclgrind_suite algorithms-1 algorithms 2 CLWARP_TEST_SHARD=1/2 || failed=1
		oclgrind_suite runs runs 1 CLWARP_TEST_ONLY=test_runs_errors,test_runs_small || failed=1
		oclgrind_suite histogram histogram 1 \
			CLWARP_TEST_ONLY=test_histogram_errors,test_histogram_small || failed=1
		exit "$failed"
	) &
	chains+=($!)
	(
		failed=0
		oclgrind_suite warp warp 0 || failed=1
		oclgrind_suite warp-ops warp-ops 1 || failed=1
		oclgrind_suite warp-sort warp-sort 2 || failed=1
		oclgrind_suite copies copies 1 CLWARP_TEST_ONLY=test_host_alloc,test_ranges_malloc_blocking,test_ranges_malloc_async,test_ranges_pinned_blocking,test_ranges_pinned_async,test_zero_bytes_event,test_race_kernel_malloc,test_race_kernel_pinned,test_free_engine_in_flight,test_running_out ||
			failed=1
		oclgrind_suite staging staging 1 CLWARP_TEST_ONLY=test_ranges,test_threshold,test_bad_knobs,test_race_same_queue,test_free_in_flight,test_group,test_pinning_refused ||
			failed=1
		exit "$failed"
	) &
	chains+=($!)
	for chain in "${chains[@]}"; do
		wait "$chain" || rc=1
	done
	cat "$WORK"/oclgrind-*.out
	oclgrind_sanitize || rc=1
	local suite_log reported=0
	for suite_log in "$log".algorithms-0 "$log".algorithms-1 "$log".sort "$log".sort-lookback "$log".runs "$log".histogram "$log".warp "$log".warp-ops "$log".warp-sort; do
		if oclgrind_reports "$suite_log" build/meson-logs/oclgrind-*.txt >/dev/null; then
			echo "Oclgrind reported errors ($suite_log):" >&2
			head -n 100 "$suite_log" >&2 2>/dev/null || true
			reported=1
		fi
	done
	((reported)) && return 1
	echo "no Oclgrind reports"
	return "$rc"
}
