# shellcheck shell=bash
# The steps of .ci/run that run on the Debian 12 host itself, which sources
# this file (uses its SRC, WORK and lib/common.sh): install, the gcc,
# clang, fuzz, sanitizer and ThreadSanitizer builds and their tests, the
# README's demo, the installed library's consumers, the release tarball,
# the API reference, valgrind.

# The step functions are called through run_step, which shellcheck cannot
# follow (it would flag every one of them as unreachable).
# shellcheck disable=SC2317

# Packages.  --no-install-recommends keeps the install small and makes every
# real dependency explicit here instead of arriving by accident.
readonly HOST_PACKAGES=(
	meson ninja-build pkg-config python3   # build system (kernels/embed.py needs python3)
	gcc libc6-dev check                    # compiler (libasan/libubsan come with gcc) + test framework
	clang                                  # second compiler (build only), and the fuzz targets' compiler
	libclang-rt-14-dev                     # libFuzzer and clang's ASan/UBSan runtimes (fuzz step)
	ocl-icd-opencl-dev opencl-c-headers    # libOpenCL.so (ICD loader) + CL/cl.h
	pocl-opencl-icd                        # the OpenCL platform the tests run on: PoCL 3.1
	oclgrind valgrind                      # dynamic checkers
	debootstrap debian-archive-keyring     # Debian 13 root; the keyring carries trixie's release key
	mount                                  # mount/umount for the chroot's bind mounts
	iproute2                               # ip netns, veths and a bridge for the PoCL-R servers (poclr step)
	cmake                                  # the CMake consumer of the installed library (consumers step)
	dpkg-dev                               # dpkg-architecture: Meson's libdir lib/x86_64-linux-gnu, as tools/setup-debian.sh gives it
	doxygen                                # the API reference and its undocumented-function check (docs step)
	python3-venv clinfo                    # Intel's OpenCL runtime from PyPI into a virtualenv, and its listing (intel step)
)

# --------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------
step_install() {
	# Retries: a fresh machine's first contact with the mirror is the most
	# likely thing to flake.
	apt-get -q -o Acquire::Retries=3 update
	apt-get -q -o Acquire::Retries=3 -o Dpkg::Use-Pty=0 install -y --no-install-recommends \
		"${HOST_PACKAGES[@]}"
	gcc --version | head -n1
	clang --version | head -n1
	meson --version
	printf 'pocl-opencl-icd %s, oclgrind %s, valgrind %s\n' "$(pocl_version)" \
		"$(dpkg-query -W -f='${Version}' oclgrind)" "$(valgrind --version)"
	ls -l /etc/OpenCL/vendors/
}

# The gcc and sanitizer builds share one test cache folder: programs the
# first suite compiled are disk hits for the second, whose job is to check
# the host code (the compile path stays covered by the tests that use
# fresh cache folders of their own).
readonly TEST_CACHE=$WORK/test-cache
readonly DIST_PARENT=$WORK/dist

step_build() {
	rm -rf "$TEST_CACHE"
	# -Dexamples=true: the test step then runs examples/ (suite examples-c).
	meson_setup build -Dwerror=true -Dexamples=true -Dtest_cache_dir="$TEST_CACHE"
	meson compile -C build
}

# The README's commands, as a user types them (build/ is configured
# already, so tools/setup-debian.sh only checks the packages).
readonly README_TEST_COMMAND='sh tools/setup-debian.sh && meson test -C build --print-errorlogs'
readonly README_FULL_TEST_COMMAND='meson test -C build --setup full --print-errorlogs'
readonly README_DEMO_COMMAND='sh tools/setup-debian.sh && meson compile -C build && build/tools/clwarp-run kernels/examples/neighbor_difference.cl'

step_test() {
	# The tests run in the unpacked release tarball, not in the clone: what
	# ships is what is tested.
	cd "$(dist_tree)"
	grep -qF "$README_TEST_COMMAND" README.md || { echo "README.md no longer gives: $README_TEST_COMMAND" >&2; return 1; }
	grep -qF "$README_FULL_TEST_COMMAND" README.md || { echo "README.md no longer gives: $README_FULL_TEST_COMMAND" >&2; return 1; }
	# Pin the backend PoCL 3.1 is expected to get: a silent change of the
	# automatic choice then fails instead of testing something else.
	# CLWARP_TEST_REQUIRE_ALL: CI can give the torture test its mount
	# namespace and the group tests their two devices, so a skip fails here.
	# Every test runs once at the full sizes: first the README's command as
	# written, with the full sizes asked for (CLWARP_TEST_QUICK=0 wins over
	# the quick setup's default, tests/test-env.h): every suite but the
	# torture and stress suites, which the quick setup leaves out; then the
	# README's full command for those two. The cache torture test gets 30 s
	# of rounds here instead of 90 (it still runs at least six, one per
	# folder fault), to keep CI within its time.
	# A failure in one run still lets the others run.
	local t=$SECONDS rc=0
	CLWARP_BACKEND=local CLWARP_TEST_QUICK=0 CLWARP_TEST_REQUIRE_ALL=1 sh -c "$README_TEST_COMMAND" || rc=1
	echo "README's test command at the full sizes: $((SECONDS - t)) s"; t=$SECONDS
	CLWARP_BACKEND=local CLWARP_TORTURE_SECONDS=30 CLWARP_TEST_REQUIRE_ALL=1 \
		sh -c "$README_FULL_TEST_COMMAND --suite torture --suite stress" || rc=1
	echo "the torture and stress suites (setup full): $((SECONDS - t)) s"
	# PoCL is a CPU device, so the sort above took its wait-free passes;
	# the look-back passes (Onesweep, the default on GPUs, which CI does
	# not have) again, at the reduced sizes: every kernel path, pairs,
	# several calls in flight, the narrow and wide local warps, an H200's
	# pairs tiles (src/algo_tuning.c, device_tunings).
	CLWARP_BACKEND=local CLWARP_ALGO_TUNING=sort_lookback=1 CLWARP_TEST_QUICK=1 \
		CLWARP_TEST_ONLY=test_sort_small,test_sort_pairs,test_sort_events,test_sort_local_widths,test_sort_device_tunings \
		meson test -C build --print-errorlogs --suite sort || rc=1
	# Pairs in nv's tiles (256 x 28; 256 x 16 where keys or values take 8
	# bytes, src/algo_tuning.c), which otherwise only the GPU check runs.
	CLWARP_BACKEND=local CLWARP_ALGO_TUNING=sort_lookback=1,sort_pairs_items=28,sort_wide_items=32 \
		CLWARP_TEST_QUICK=1 CLWARP_TEST_ONLY=test_sort_pairs \
		meson test -C build --print-errorlogs --suite sort || rc=1
	return "$rc"
}

step_demo() {
	grep -qF "$README_DEMO_COMMAND" README.md || { echo "README.md no longer gives: $README_DEMO_COMMAND" >&2; return 1; }
	local out
	out=$(CLWARP_BACKEND=local sh -c "$README_DEMO_COMMAND")
	echo "$out"
	# The README promises these values.
	grep -qx 'arg1: 1 3 5 7 9 11 13 15 17 19 21 23 25 27 29 31 33 35 37 39 41 43 45 47 49 51 53 55 57 59 61 0' <<<"$out"
}

# The install as docs/install.md gives it, checked as users use it
# (tests/consumer/run.sh): a pkg-config and a CMake (find_package)
# application built against the installed library and run, and the
# installed clwarp-run on an installed example kernel with --check. First
# `meson install` as root into /usr/local, run with only PATH and HOME set;
# then that install is removed (ninja uninstall, then ldconfig; also when
# the step fails, so later steps never see it) and a second build goes into
# a prefix in a home folder, run with only the variables docs/install.md
# names.
step_consumers() {
	local home=$WORK/consumer-home prefix
	rm -rf "$WORK/consumer-system" "$WORK/consumer-user" "$home"
	trap 'ninja -C build uninstall >/dev/null; ldconfig' EXIT
	meson install -C build --no-rebuild --quiet
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="${HOME:-/root}" \
		sh tests/consumer/run.sh /usr/local "$WORK/consumer-system"
	ninja -C build uninstall >/dev/null
	ldconfig
	trap - EXIT
	prefix=$home/.local
	meson_setup "$WORK/build-user" --prefix="$prefix" --libdir=lib -Dtests=false -Dbench=false
	meson compile -C "$WORK/build-user"
	meson install -C "$WORK/build-user" --quiet
	env -i PATH="$prefix/bin:/usr/local/bin:/usr/bin:/bin" HOME="$home" PKG_CONFIG_PATH="$prefix/lib/pkgconfig" \
		sh tests/consumer/run.sh "$prefix" "$WORK/consumer-user" --rpath
}

step_dist() {
	# The release tarball: meson dist packs the committed tree, then
	# configures, builds, tests and installs it from the tarball alone, so a
	# file the build needs but git does not track fails here. Its build
	# takes this folder's options: -Dtests=false leaves the Check suite
	# out of this first check (the examples' suite examples-c runs, seconds);
	# the test step then runs the whole suite in the unpacked tarball.
	meson_setup build-dist -Dtests=false -Dbench=false -Dexamples=true
	meson dist -C build-dist --formats xztar
	ls -l build-dist/meson-dist/
	rm -rf "$DIST_PARENT"
	mkdir -p "$DIST_PARENT"
	tar -xJf build-dist/meson-dist/clwarp-*.tar.xz -C "$DIST_PARENT"
	echo "unpacked into $(dist_tree)"
}

# The unpacked release tarball's folder (the dist step makes it).
dist_tree() {
	local d
	for d in "$DIST_PARENT"/clwarp-*; do
		[[ -d $d ]] && { echo "$d"; return 0; }
	done
	echo "no unpacked release tarball in $DIST_PARENT: the dist step makes it" >&2
	return 1
}

step_docs() {
	# The API reference from the public headers (Doxygen, docs/meson.build);
	# docs/check-undocumented.py fails on any public function without a
	# documentation comment.
	meson compile -C build docs
}

step_clang() {
	CC=clang meson_setup build-clang -Dwerror=true -Dtests=false -Dbench=false
	meson compile -C build-clang
}

step_fuzz() {
	# The parsers of untrusted text under libFuzzer with ASan and UBSan
	# (tests/fuzz, docs/reliability.md): each target runs its regression
	# inputs, then fuzzes from its seed corpus for CLWARP_FUZZ_SECONDS.
	# 60 s each, all five at once, so the step costs one minute of wall
	# time whatever the core count (on 2 cores each target gets about
	# 24 s of CPU); longer runs by hand (docs/reliability.md).
	local targets
	CC=clang meson_setup build-fuzz -Dfuzz=true -Dtests=false -Dbench=false
	meson compile -C build-fuzz
	targets=$(meson test -C build-fuzz --suite fuzz --list | wc -l)
	CLWARP_FUZZ_SECONDS=${CLWARP_FUZZ_SECONDS:-60} \
		meson test -C build-fuzz --suite fuzz --num-processes "$targets" --print-errorlogs
}

step_sanitizers() {
	# gcc's ASan/UBSan.  b_lundef=false: sanitized shared objects have
	# undefined references to the runtime, resolved at load time.
	# -fno-omit-frame-pointer: ASan's fast unwinder walks frame pointers, so
	# an allocation's stack shows our callers, not only the function that
	# called malloc.  No benchmarks: they do not run here.
	meson_setup build-san -Db_sanitize=address,undefined -Db_lundef=false -Dwerror=true \
		-Dc_args=-fno-omit-frame-pointer -Dbench=false -Dexamples=true -Dtest_cache_dir="$TEST_CACHE"
	meson compile -C build-san
	# halt_on_error: the first report ends the test process, so Check counts
	#   the test as failed (Check's fork mode: one process per test).
	# The fast unwinder (ASan's default) records allocations: libpocl and
	#   libLLVM have no frame pointers, so their stacks end inside them and
	#   tests/lsan.supp names those two libraries. The slow unwinder
	#   (fast_unwind_on_malloc=0), once used to tell leaked
	#   OpenCL objects of ours from PoCL's own leaks, made the step 3-5x
	#   slower (every malloc in LLVM's kernel compiles unwound) and bought
	#   nothing: PoCL 3.1 keeps every cl_mem, cl_kernel and cl_program
	#   reachable from its own lists, so LeakSanitizer reports none of them
	#   with either unwinder (tests/lsan.supp says how that was checked).
	#   Leaks of memory our code allocates are reported as before.
	# print_suppressions=1: the log shows which suppressions matched.
	# CLWARP_TEST_QUICK: the conformance and algorithm suites take their
	#   reduced size matrix; every host code path is still taken.
	# The torture test runs in the test step: here its many processes
	#   would each run under ASan. The thread stress test runs under
	#   ThreadSanitizer in its own step (under ASan it took 77 s with no
	#   report, docs/reliability-threads.md).
	# (run_step runs this function in a subshell: the exports stay here.)
	export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
	export LSAN_OPTIONS="suppressions=$SRC/tests/lsan.supp:print_suppressions=1"
	export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	local tests=() name
	while read -r name; do
		[[ $name == torture || $name == threads ]] || tests+=("$name")
	done < <(meson test -C build-san --list 2>/dev/null | sed -n 's|^clwarp:[^ ]* / ||p')
	CLWARP_BACKEND=local CLWARP_TEST_QUICK=1 \
		meson test -C build-san --print-errorlogs --timeout-multiplier 3 "${tests[@]}"
}

step_threads() {
	# The threads suite under gcc's ThreadSanitizer: several threads
	# building, looking up, launching, reading and running algorithms on one
	# engine, on an engine each, and on engines of one context
	# (tests/test-threads), and groups from several threads, a group each
	# (tests/test-threads-groups); any report
	# fails (docs/reliability-threads.md, which also shows that TSan does
	# see our races through PoCL). libpocl and LLVM are not instrumented
	# and need no suppressions.
	# CK_FORK=no: one process, so a report is the test's exit status 66.
	# The plain build ran the same test in the test step, so PoCL's kernel
	# cache is warm here (39-45 s on 2 cores for the three cases, of which
	# 20-26 s for the shared engine).
	meson_setup build-tsan -Db_sanitize=thread -Db_lundef=false -Dwerror=true -Dbench=false
	meson compile -C build-tsan tests/test-threads tests/test-threads-groups tests/test-staging
	CK_FORK=no CLWARP_BACKEND=local TSAN_OPTIONS=halt_on_error=1:exitcode=66 \
		meson test -C build-tsan --no-rebuild --print-errorlogs --suite threads
	# The staged copies' host threads (the engine's pool, src/workers.c),
	# staging forced on for PoCL's CPU devices: several threads per copy,
	# copies from several threads at once, freeing the engine (18 s here).
	CK_FORK=no TSAN_OPTIONS=halt_on_error=1:exitcode=66 \
		meson test -C build-tsan --no-rebuild --print-errorlogs staging
}

step_valgrind() {
	# The 'valgrind' setup (tests/meson.build) adds memcheck with
	# --error-exitcode and tests/valgrind.supp.  Only the unit suite: a
	# single kernel compile by PoCL's LLVM takes over a minute under
	# memcheck, which rules out the engine suite.
	meson test -C build --setup valgrind --suite unit --print-errorlogs
}
