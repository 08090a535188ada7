#!/usr/bin/env bash
# Sort variants against each other and CUB, alternated round by round in one job.
# SPDX-License-Identifier: MIT
#
# Usage (on the GPU machine, from anywhere):
#   bash bench/sort-ab-gpu.sh OUTDIR VARIANT...
# A VARIANT is LABEL[:PATCH[:TUNING]]:
#   base                          this tree as it is
#   cap80::sort_regs=80           this tree, with CLWARP_ALGO_TUNING=sort_regs=80
#   lean:x.diff                   this tree with x.diff applied (patch -p1, from the root)
#   lean28:x.diff:sort_pairs_items=28
# Variants with the same patch share one build. Knobs: CASES (sort-bench
# --cases, default pairs-uint), MIN_LOG2/MAX_LOG2 (24/28), REPS (10),
# ROUNDS (3), LIMIT (seconds after which no new round starts, 420),
# DEVICE (sort-bench --device, gpu), ARCH (nvcc -arch, sm_90), BITS
# (--bits B:E for both programs: only those bits, and no order check, so
# that a variant which does not sort, made only to time a part, can run),
# PTX (1; 0 skips ptxas.txt and its runs, a few seconds a variant and case).
# CLWARP_OPENCL_ENV (optional): a shell file, sourced first, that puts the OpenCL platforms on the loader's path.
#
# Writes OUTDIR/ROUND-LABEL.tsv and .log for every variant and
# OUTDIR/ROUND-cub.tsv where CUB builds and runs (nvcc and an NVIDIA GPU);
# OUTDIR/ptxas.txt: registers and spills of each variant's clwarp_sort_pass, per case
# (ptxas -v on the PTX NVIDIA's OpenCL left in the variant's program cache,
# at the cap its tuning sets, else uncapped and at 64 and 80); OUTDIR/summary.txt: per case and size, each
# variant's median over the rounds in ms and, in brackets, CUB's median
# over it (1.0 is CUB's speed, higher is faster). Exit status 1 when a
# build or a run failed.
set -uo pipefail

[[ $# -ge 2 ]] || { sed -n '4,19p' "$0"; exit 2; }
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd) || exit 1
shift
# One build per distinct patch ("-": this tree as it is); paths are the caller's.
declare -A build_of=()
labels=() patches=() tunings=()
for spec in "$@"; do
	IFS=: read -r label patch tuning <<<"$spec"
	if [[ -n $patch ]]; then
		patch=$(realpath -e "$patch") || exit 1
	else
		patch=-
	fi
	labels+=("$label") patches+=("$patch") tunings+=("$tuning")
	build_of[$patch]=1
done
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
CASES=${CASES:-pairs-uint} MIN_LOG2=${MIN_LOG2:-24} MAX_LOG2=${MAX_LOG2:-28} REPS=${REPS:-10}
ROUNDS=${ROUNDS:-3} LIMIT=${LIMIT:-420} DEVICE=${DEVICE:-gpu} ARCH=${ARCH:-sm_90}
WORK=${TMPDIR:-/tmp}/sort-ab
status=0

if [ -n "${CLWARP_OPENCL_ENV:-}" ]; then
	# shellcheck source=/dev/null
	source "$CLWARP_OPENCL_ENV" >/dev/null 2>&1
fi
rm -rf "$WORK" && mkdir -p "$WORK"

k=0
for patch in "${!build_of[@]}"; do
	src=$PWD build=$WORK/build-$k
	if [[ $patch != - ]]; then
		src=$WORK/src-$k
		mkdir -p "$src" && git ls-files -z | xargs -0 cp --parents -t "$src"
		(cd "$src" && patch -s -p1 <"$patch") || { echo "sort-ab: $patch does not apply"; exit 1; }
	fi
	build_of[$patch]=$build
	( cd "$src" && meson setup "$build" -Dtests=false -Dbench=true -Dexamples=false >"$build.log" 2>&1 &&
		ninja -C "$build" bench/sort-bench >>"$build.log" 2>&1 ) &
	k=$((k + 1))
done
cub=
if command -v nvcc >/dev/null && nvidia-smi >/dev/null 2>&1; then
	cub=$WORK/cub-sort-bench
	nvcc -O3 -arch="$ARCH" -std=c++17 -Ibench bench/cub-sort-bench.cu -o "$cub" || { cub=; status=1; }
fi
wait
for patch in "${!build_of[@]}"; do
	[[ -x ${build_of[$patch]}/bench/sort-bench ]] ||
		{ echo "sort-ab: the build of $patch failed (${build_of[$patch]}.log)"; exit 1; }
done
echo "sort-ab: built in $SECONDS s; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"

args=(--device "$DEVICE" --min-log2 "$MIN_LOG2" --max-log2 "$MAX_LOG2" --reps "$REPS" --cases "$CASES")
[[ -n ${BITS:-} ]] && args+=(--bits "$BITS")
for ((r = 1; r <= ROUNDS; r++)); do
	for i in "${!labels[@]}"; do
		l=${labels[$i]}
		CLWARP_CACHE_DIR=$WORK/cache-$l CLWARP_ALGO_TUNING=${tunings[$i]} timeout 200 \
			"${build_of[${patches[$i]}]}/bench/sort-bench" "${args[@]}" --tsv "$OUTDIR/$r-$l.tsv" \
			>"$OUTDIR/$r-$l.log" 2>&1 || { echo "sort-ab: $l failed in round $r"; status=1; }
	done
	if [[ -n $cub ]]; then
		timeout 200 "$cub" "${args[@]:2}" --tsv "$OUTDIR/$r-cub.tsv" >"$OUTDIR/$r-cub.log" 2>&1 ||
			{ echo "sort-ab: CUB failed in round $r"; status=1; }
	fi
	echo "sort-ab: round $r done at $SECONDS s"
	((SECONDS > LIMIT)) && break
done

# The PTX of each variant's clwarp_sort_pass, one case at a time: one
# small run per case into a cache of its own, so that each PTX is named
# by its case (the rounds' caches hold every case's programs under hashed
# names). A cache file is an 88-byte header, then the text.
if [[ ${PTX:-1} != 0 ]] && command -v ptxas >/dev/null; then
	IFS=, read -ra case_list <<<"$CASES"
	for i in "${!labels[@]}"; do
		l=${labels[$i]} cap=$(grep -o 'sort_regs=[0-9]*' <<<"${tunings[$i]}" | cut -d= -f2)
		for c in "${case_list[@]}"; do
			dir=$WORK/ptx-$l-$c
			rm -rf "$dir"
			CLWARP_CACHE_DIR=$dir CLWARP_ALGO_TUNING=${tunings[$i]} timeout 200 \
				"${build_of[${patches[$i]}]}/bench/sort-bench" --device "$DEVICE" --min-log2 "$MIN_LOG2" \
				--max-log2 "$MIN_LOG2" --reps 1 --cases "$c" ${BITS:+--bits "$BITS"} >/dev/null 2>&1 ||
				echo "sort-ab: $l $c: the PTX run failed" >&2
			python3 - "$dir" "$WORK/$l-$c" <<'EOF'
import os, sys
k = 0
for root, _, files in os.walk(sys.argv[1]):
    for name in sorted(files):
        data = open(os.path.join(root, name), 'rb').read()
        if data.startswith(b'CLWARPC') and b'.entry clwarp_sort_pass' in data:
            k += 1
            open('%s-%d.ptx' % (sys.argv[2], k), 'wb').write(data[88:].rstrip(b'\0'))
EOF
			# A cap the tuning does not set may still come from the
			# device's own defaults (src/algo_tuning.c: 64 for 4-byte
			# keys, 80 for pairs on an H200), which this script cannot
			# see: each PTX also at those caps.
			for ptx in "$WORK/$l-$c"-*.ptx; do
				[[ -e $ptx ]] || continue
				for r in ${cap:-none 64 80}; do
					[[ $r == none ]] && r=
					echo "$l $c ${ptx##*-} cap ${r:-none}: $(ptxas -arch="$ARCH" -v ${r:+--maxrregcount=$r} "$ptx" -o /dev/null 2>&1 |
						grep -A4 "entry function 'clwarp_sort_pass'" | grep -o 'Used [0-9]* registers\|[0-9]* bytes spill stores' |
						tr '\n' ' ')"
				done
			done
		done
	done >"$OUTDIR/ptxas.txt"
fi

python3 - "$OUTDIR" <<'EOF' | tee "$OUTDIR/summary.txt"
import collections, glob, os, statistics, sys
times = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.tsv'))):
    label = os.path.basename(f)[:-4].split('-', 1)[1]
    for row in open(f):
        c = row.rstrip('\n').split('\t')
        if len(c) >= 6 and not c[0].startswith('#'):
            times[(c[2] + '-' + c[3], int(c[4]), label)].append(float(c[5]))
for case, n in sorted({(k[0], k[1]) for k in times}):
    # CUB's row for the same case, else for the case without its suffix
    # (float-nan, float-total: float); pairs-ulong-ulong has its own.
    cub = times.get((case, n, 'cub')) or times.get(('-'.join(case.split('-')[:2]), n, 'cub'))
    cells = []
    for (c, m, label), v in sorted(times.items()):
        if (c, m) == (case, n) and label != 'cub':
            ratio = ' (%.2f)' % (statistics.median(cub) / statistics.median(v)) if cub else ''
            cells.append('%s %.3f%s' % (label, statistics.median(v), ratio))
    print('%s 2^%d: %s%s' % (case, n.bit_length() - 1, '  '.join(cells),
                             '  cub %.3f' % statistics.median(cub) if cub else ''))
EOF
exit $status
