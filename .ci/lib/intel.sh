# shellcheck shell=bash
# The "intel" step of .ci/run, which sources this file (uses its SRC, WORK
# and lib/common.sh): Intel's OpenCL runtime for x86 CPUs, from PyPI at the
# version tools/intel-opencl-env.sh pins, registered as the only OpenCL
# platform, running the gcc build's tests. Measured on a 2-core machine
# shared with other jobs, a fresh virtualenv and cold kernel
# caches: 259 s (intel backend 148 s, algorithms 49 s, khr 7 s, local 42 s);
# after the merge of main, at a load average of 7.7: 501 s (316, 88, 12, 70).

# The step functions are called through run_step, which shellcheck cannot
# follow (it would flag every one of them as unreachable).
# shellcheck disable=SC2317

# in_intel COMMAND...: COMMAND with only Intel's runtime registered.
in_intel() {
	CLWARP_INTEL_OPENCL_DIR=$WORK/intel-opencl PIP_CACHE_DIR=$WORK/pip-cache \
		sh tools/intel-opencl-env.sh "$@"
}

step_intel() {
	# The virtualenv is kept in $WORK and reused on a machine that ran CI
	# before; pip's download cache too (PIP_CACHE_DIR).
	in_intel clinfo -l
	local t=$SECONDS rc=0
	# The automatic backend: intel at width 16 (test-warp checks it), at the
	# reduced sizes (CLWARP_TEST_QUICK): the engine, warp conformance (with
	# <clwarp/cuda.h>'s table), clwarp-run, examples, the CUDA-style corpus
	# (with the local backend at W = 8, 16, 32 too), thread, bad-input and
	# look-back stress (48 calls, 44 s here) suites in full. Left out:
	# unit (no device), torture (the test step runs it; it exercises the
	# disk cache, not the device), multidevice (the group suites want two
	# devices, and Intel's runtime makes one of this CPU), and the
	# algorithm suites, which run below.
	in_intel env CLWARP_TEST_EXPECT_BACKEND=intel CLWARP_TEST_QUICK=1 \
		meson test -C build --no-rebuild --print-errorlogs --num-processes 2 \
		engine program launch width cache buildmemo bad-input \
		warp warp-ops warp-sort cuda cli examples corpus threads lookback-stress || rc=1
	echo "Intel, intel backend (W = 16): $((SECONDS - t)) s"; t=$SECONDS
	# The algorithms, runs, histogram and sort on the intel backend, every
	# check at the reduced sizes (250 s here with warm caches;
	# a subset of the checks took 54 s).
	in_intel env CLWARP_TEST_QUICK=1 \
		meson test -C build --no-rebuild --print-errorlogs --num-processes 2 \
		algorithms runs histogram sort || rc=1
	echo "Intel, algorithms: $((SECONDS - t)) s"; t=$SECONDS
	# khr pinned to 32 (intel_reqd_sub_group_size(32)): every primitive and
	# type (test-warp), the width checks, <clwarp/cuda.h> (its block
	# votes take the hidden scratch only on khr and intel) and the corpus. warp-ops and warp-sort at 32
	# took 225 s cold here and passed; the intel backend runs
	# them above, and PoCL 6.0 runs them pinned to 32 in the trixie step.
	in_intel env CLWARP_BACKEND=khr CLWARP_TEST_QUICK=1 \
		meson test -C build --no-rebuild --print-errorlogs --num-processes 2 \
		warp width cuda corpus || rc=1
	echo "Intel, khr backend (W = 32): $((SECONDS - t)) s"; t=$SECONDS
	# The local backend: its warps are linear whatever the runtime's
	# sub-groups, so it never refuses a 2-D shape. The warp suite checks
	# float and double warp_reduce_add against the lane-order sum, which
	# this compiler reorders unless the fold's loop is kept scalar
	# (contrib/driver-bugs/intel-float-fold/). warp-sort: its float keys sorted wrong
	# descending here at W = 32 until the key took its mask from a shift
	# (contrib/driver-bugs/intel-sort-key-miscompile/).
	in_intel env CLWARP_BACKEND=local CLWARP_TEST_QUICK=1 \
		meson test -C build --no-rebuild --print-errorlogs --num-processes 2 warp warp-ops warp-sort || rc=1
	echo "Intel, local backend (W = 32): $((SECONDS - t)) s"
	return "$rc"
}
