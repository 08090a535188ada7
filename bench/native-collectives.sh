#!/bin/sh
# Native cl_khr_subgroup_* collectives against libclwarp's generic path
# (bench/native-collectives.cl), on Intel's OpenCL runtime.
# SPDX-License-Identifier: MIT
#
#   sh bench/native-collectives.sh [BUILD] [BACKEND] [ROUNDS]
#
# BUILD defaults to build, BACKEND to intel, ROUNDS to 3. For each case,
# ROUNDS rounds of one generic run (libclwarp's call, built with
# -DCLWARP_GENERIC_COLLECTIVES) and one native run (-DNATIVE: the raw
# built-in), each clwarp-run --repeat 11 on 2^18 work-items, alternating
# so that a shared machine's load falls on both; then one line: case, the
# best median of each form in ms, and native / generic. The two forms
# must print the same sum; a case where they differ says so.
# CASES="3 4" runs those cases only. MODE=lib compares libclwarp's own
# calls (the GEN form) as built, with the native collectives the probe
# passed, against the same built with -DCLWARP_GENERIC_COLLECTIVES.
set -eu
build=${1:-build}
backend=${2:-intel}
rounds=${3:-3}
here=$(dirname "$0")
cl=$here/native-collectives.cl
# RUNNER: what runs clwarp-run (default: Intel's runtime through
# tools/intel-opencl-env.sh; RUNNER=env for the ICD loader's own choice).
run() {
	nice ${RUNNER:-sh "$here/../tools/intel-opencl-env.sh"} "$build/tools/clwarp-run" -b "$backend" \
		--repeat 11 -g 262144 -D CASE="$1" ${2:+"$2"} "$cl"
}
printf 'case\tgeneric_ms\tnative_ms\tnative/generic\n'
for c in ${CASES:-$(seq 23)}; do
	best_g='' best_n='' sum_g='' sum_n=''
	for _ in $(seq "$rounds"); do
		for form in generic native; do
			if [ "${MODE:-raw}" = lib ]; then
				opt=
				[ $form = generic ] && opt=-DCLWARP_GENERIC_COLLECTIVES
			else
				opt=-DCLWARP_GENERIC_COLLECTIVES
				[ $form = native ] && opt=-DNATIVE
			fi
			out=$(run $c "$opt") || { echo "case $c $form: clwarp-run failed" >&2; echo "$out" >&2; continue; }
			sum=$(printf '%s\n' "$out" | sed -n 's/^arg0: //p')
			med=$(printf '%s\n' "$out" | sed -n 's/.*median \([0-9.]*\) \(m\?s\|us\).*/\1 \2/p')
			ms=$(echo "$med" | awk '{ print $2 == "us" ? $1 / 1000 : ($2 == "s" ? $1 * 1000 : $1) }')
			if [ $form = generic ]; then
				sum_g=$sum
				best_g=$(echo "${best_g:-$ms} $ms" | awk '{ print $1 < $2 ? $1 : $2 }')
			else
				sum_n=$sum
				best_n=$(echo "${best_n:-$ms} $ms" | awk '{ print $1 < $2 ? $1 : $2 }')
			fi
		done
	done
	[ "$sum_g" = "$sum_n" ] || echo "case $c: sums differ (generic $sum_g, native $sum_n)" >&2
	printf '%s\t%s\t%s\t%s\n' "$c" "$best_g" "$best_n" "$(echo "$best_g $best_n" | awk '{ printf "%.2f", $2 / $1 }')"
done
