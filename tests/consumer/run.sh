#!/bin/sh
# What a user does with an installed libclwarp: builds consumer.c with
# `pkg-config clwarp` and with CMake's find_package(clwarp)
# (CMakeLists.txt here) and runs both, then runs the installed clwarp-run
# on an installed example kernel with --check. CI's consumers step runs it
# after a system install with nothing set but PATH and HOME, and after an
# install into a home folder with only the variables docs/install.md names.
#   sh tests/consumer/run.sh PREFIX OUTDIR [--rpath]
# From the top folder. PREFIX: where libclwarp was installed; everything
# used must come from there. --rpath: link the pkg-config build with an
# rpath to the library's folder, as docs/install.md says for a prefix the
# loader does not search.
# SPDX-License-Identifier: MIT
set -eu

prefix=$1
out=$2
rpath=${3:-}
here=$(dirname "$0")
mkdir -p "$out"

libdir=$(pkg-config --variable=libdir clwarp)
case $libdir in
"$prefix"/*) ;;
*) echo "run.sh: pkg-config finds clwarp in $libdir, not under $prefix" >&2; exit 1 ;;
esac
flags=$(pkg-config --cflags --libs clwarp)
[ "$rpath" != --rpath ] || flags="$flags -Wl,-rpath,$libdir"
echo "pkg-config clwarp: $flags"
# shellcheck disable=SC2086 # the flags are meant to split
gcc -std=c11 -Wall -Werror -o "$out/consumer-pkgconfig" "$here/consumer.c" $flags
"$out/consumer-pkgconfig"

cmake -G Ninja -S "$here" -B "$out/consumer-cmake" -DCLWARP_EXPECT_PREFIX="$prefix"
cmake --build "$out/consumer-cmake" >/dev/null
"$out/consumer-cmake/consumer"

run=$(command -v clwarp-run)
[ "$run" = "$prefix/bin/clwarp-run" ] ||
	{ echo "run.sh: clwarp-run is $run, not $prefix/bin/clwarp-run" >&2; exit 1; }
"$run" --version
"$run" --check "$prefix/share/clwarp/kernels/examples/neighbor_difference.cl"

# The man page points at the guide it installed.
guide=$(grep -o '/[^ \\]*/clwarp-run\.md' "$prefix/share/man/man1/clwarp-run.1")
[ -f "$guide" ] || { echo "run.sh: the man page's $guide is not there" >&2; exit 1; }
echo "man page's guide: $guide"
