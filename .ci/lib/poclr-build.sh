# shellcheck shell=bash
# PoCL-R's build for the "poclr" step, which .ci/poclr.sh sources (uses
# .ci/run's TRIXIE_ROOT, SRC, WORK and ROOT_ENV, and POCLR_PREFIX): the
# packages, flags and patches, and the build into the Debian 13 root.

# What PoCL-R's build needs on top of the root's packages.  Installed with
# apt-get by this step, not put into TRIXIE_PACKAGES: only this step needs
# them (a C++ compiler, cmake), and the trixie step's root and its
# debootstrap stay as they are.  Changing this list or the flags below rebuilds PoCL-R.
readonly POCLR_PACKAGES=(pocl-source cmake g++ make libhwloc-dev ocl-icd-dev xz-utils patch)
# The remote client driver and the server, nothing else: no LLVM (the
# client compiles nothing; the servers use the root's PoCL 6.0), no CPU
# driver.  ENABLE_LOADABLE_DRIVERS=OFF: the remote driver is linked into
# libpocl, as PoCL 6.0's remote.rst requires of the client (PoCL issue
# 1297), so the vendor file below is all the client needs.
# CMAKE_POSITION_INDEPENDENT_CODE: the drivers' object libraries are
# linked into libpocl.so and are not built with -fPIC otherwise (ld:
# "relocation R_X86_64_PC32 against symbol `stderr' can not be used when
# making a shared object").
# -include algorithm: several pocld sources (daemon.cc,
# shared_cl_context.cc) call std::find without including <algorithm>, which
# the root's GCC 14 headers do not bring in through the others.
readonly POCLR_CMAKE_FLAGS=(
	-DENABLE_LLVM=OFF -DENABLE_HOST_CPU_DEVICES=OFF -DENABLE_LOADABLE_DRIVERS=OFF
	-DENABLE_REMOTE_CLIENT=ON -DENABLE_REMOTE_SERVER=ON -DENABLE_ICD=ON
	-DENABLE_TESTS=OFF -DENABLE_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release
	"-DCMAKE_INSTALL_PREFIX=$POCLR_PREFIX" -DCMAKE_POSITION_INDEPENDENT_CODE=ON
	"-DCMAKE_CXX_FLAGS=-include algorithm"
)

# Our fixes to PoCL 6.0, applied in this order (each patch says what it
# does).  Changing this list or a patch rebuilds PoCL-R (the build stamp
# holds each one's name and hash).
#
# poclr-netcmd-race.patch: a race in the remote client.  A synchronous
# request lives on its caller's stack, and the client wrote into it after
# the caller could already have returned: the reader
# thread set the request's status before taking its mutex (then locked,
# signalled and unlocked a mutex and a condition that were by then the
# caller's later stack frames), and the writer thread stored a timestamp in
# it after sending it.  Seen as clwarp-run segfaults in libpocl's
# pocl_create_command_struct with a corrupted num_events (in the backtrace
# taken: the first clEnqueueWriteBuffer of libclwarp's sub-group width
# probe, after a remote build).  Runs of
# a warp-aggregated atomics example kernel with fresh caches: unpatched,
# 4 of 20, 5 of 30 and 8 of 20 crashed; patched, 0 of 80 (run alternately
# with the 8 of 20).  Without it the step fails at random.
#
# poclr-peer-loss.patch: in the server, a peer server that is lost (pocld 2
# killed) no longer ends the client's whole session on the servers that are
# left (pocld 1), which then answered that client nothing more while
# keeping its sockets open (docs/multidevice.md, "Limits", has the
# cause).  poclr_fault needs it: the live device must still answer.
readonly POCLR_PATCHES=(.ci/poclr-netcmd-race.patch .ci/poclr-peer-loss.patch)

# ---- Build -----------------------------------------------------------------
# Builds PoCL-R from the root's pocl-source package into $POCLR_PREFIX, or
# reuses the build a run before left there with the same packages and flags
# (a stamp, like the root's own).
poclr_build() {
	local stamp=$TRIXIE_ROOT$POCLR_PREFIX/.clwarp-ci-poclr
	local want patch
	want="packages: ${POCLR_PACKAGES[*]}; cmake: ${POCLR_CMAKE_FLAGS[*]}; patches:"
	for patch in "${POCLR_PATCHES[@]}"; do
		want+=" $(basename "$patch") $(sha256sum <"$SRC/$patch" | cut -d' ' -f1)"
	done
	if [[ -f $stamp && $(<"$stamp") == "$want" ]]; then
		echo "reusing PoCL-R in $TRIXIE_ROOT$POCLR_PREFIX"
		return 0
	fi
	local t=$SECONDS log=$WORK/poclr-build.log
	rm -rf "${TRIXIE_ROOT:?}$POCLR_PREFIX"
	timeout 300 chroot "$TRIXIE_ROOT" "${ROOT_ENV[@]}" \
		apt-get -q -o Acquire::Retries=3 update >"$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; return 1; }
	timeout 600 chroot "$TRIXIE_ROOT" "${ROOT_ENV[@]}" DEBIAN_FRONTEND=noninteractive \
		apt-get -q -o Acquire::Retries=3 -o Dpkg::Use-Pty=0 install -y --no-install-recommends \
		"${POCLR_PACKAGES[@]}" >>"$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; return 1; }
	echo "PoCL-R packages: $((SECONDS - t)) s"
	# The build folder is thrown away after the install: only $POCLR_PREFIX
	# is kept.
	rm -rf "$TRIXIE_ROOT/tmp/poclr-build"
	mkdir -p "$TRIXIE_ROOT/tmp/poclr-build"
	local i
	for i in "${!POCLR_PATCHES[@]}"; do
		cp "$SRC/${POCLR_PATCHES[i]}" "$TRIXIE_ROOT/tmp/poclr-build/$i.patch"
	done
	# shellcheck disable=SC2016 # expanded by the shell inside the root
	if ! timeout 1800 chroot "$TRIXIE_ROOT" "${ROOT_ENV[@]}" bash -euc '
		cd /tmp/poclr-build
		tar xf /usr/src/pocl.tar.xz
		for ((i = 0; ; i++)); do   # 0.patch, 1.patch ...: POCLR_PATCHES in order
			[[ -f $i.patch ]] || break
			patch -d pocl -p1 <"$i.patch"
		done
		mkdir pocl/build
		cd pocl/build
		cmake .. "$@"
		make -j"$(nproc)"
		make install
		cd /
		rm -rf /tmp/poclr-build' poclr-build "${POCLR_CMAKE_FLAGS[@]}" >>"$log" 2>&1; then
		echo "PoCL-R build failed; the end of $log:" >&2
		grep -E 'error|Error' "$log" | head -n 20 >&2 || true
		tail -n 30 "$log" >&2
		return 1
	fi
	# The client's OpenCL: a vendor folder holding only PoCL-R's library.
	mkdir -p "$TRIXIE_ROOT$POCLR_PREFIX/vendors"
	echo "$POCLR_PREFIX/lib/libpocl.so.2" >"$TRIXIE_ROOT$POCLR_PREFIX/vendors/poclr.icd"
	printf '%s\n' "$want" >"$stamp"
	# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
	echo "PoCL-R built from pocl-source $(chroot "$TRIXIE_ROOT" dpkg-query -W -f='${Version}' pocl-source) in $((SECONDS - t)) s"
}
