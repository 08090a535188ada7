#!/bin/sh
# Intel's OpenCL runtime for x86 CPUs, from PyPI, registered with the ICD loader.
# SPDX-License-Identifier: MIT
#
# Usage:
#   sh tools/intel-opencl-env.sh                 print the environment (eval it)
#   sh tools/intel-opencl-env.sh COMMAND [ARG]... run COMMAND in it
#
#   eval "$(sh tools/intel-opencl-env.sh)"
#   clinfo -l                       # Platform #0: Intel(R) OpenCL
#   meson test -C build
#
# The first run makes a virtualenv and installs intel-opencl-rt at the
# pinned version with pip (about 700 MB); later runs reuse it. Needs
# python3 with venv (Debian: python3-venv) and the system's ICD loader
# (ocl-icd-libopencl1, which libclwarp links anyway).
#
#   CLWARP_INTEL_OPENCL_DIR  where it goes (default ~/.cache/clwarp/intel-opencl-VERSION)
#   PIP_CACHE_DIR            pip's own download cache, as usual
#
# What it sets:
#   OCL_ICD_VENDORS  a folder holding one intel-cpu.icd that names
#                    libintelocl.so by its full path: the loader sees Intel's
#                    runtime and nothing else (the wheel's own .icd names a
#                    build-time path that does not exist).
#   LD_LIBRARY_PATH  a folder of links to the wheel's libraries (the
#                    compiler runtime, TBB) without the wheel's own
#                    libOpenCL.so: programs keep the system's ICD loader.
set -eu

version=2026.2.0
dir=${CLWARP_INTEL_OPENCL_DIR:-${HOME:-/root}/.cache/clwarp/intel-opencl-$version}
venv=$dir/venv

installed() {
	[ -f "$venv/lib/libintelocl.so" ] &&
		"$venv/bin/python3" -m pip show intel-opencl-rt 2>/dev/null | grep -qx "Version: $version"
}

if ! installed; then
	echo "intel-opencl-env: installing intel-opencl-rt $version into $venv" >&2
	python3 -m venv "$venv" >&2
	# intel-opencl-rt names the compiler runtime's licence package but not
	# the runtime itself (libimf, libsvml, libintlc): ask for both.
	"$venv/bin/python3" -m pip install --disable-pip-version-check -q \
		"intel-opencl-rt==$version" "intel-cmplr-lib-rt==$version" >&2
	installed || { echo "intel-opencl-env: no libintelocl.so in $venv/lib after pip install" >&2; exit 1; }
fi

mkdir -p "$dir/vendors" "$dir/lib"
printf '%s\n' "$venv/lib/libintelocl.so" >"$dir/vendors/intel-cpu.icd"
for f in "$venv"/lib/lib*.so*; do
	case ${f##*/} in
	libOpenCL.*) ;;
	*) ln -sf "$f" "$dir/lib/" ;;
	esac
done

OCL_ICD_VENDORS=$dir/vendors
LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OCL_ICD_VENDORS LD_LIBRARY_PATH

if [ $# -gt 0 ]; then
	exec "$@"
fi
printf 'export OCL_ICD_VENDORS=%s\n' "$OCL_ICD_VENDORS"
printf 'export LD_LIBRARY_PATH=%s\n' "$LD_LIBRARY_PATH"
