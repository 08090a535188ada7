#!/usr/bin/env bash
# Try tile and grid shapes (CLWARP_ALGO_TUNING) with algorithms-bench; print GB/s per shape.
# SPDX-License-Identifier: MIT
#
# Usage: bash bench/tune-gpu.sh [SHAPE...]
#   SHAPE: "default" or a CLWARP_ALGO_TUNING value such as
#   "scan_wg=128,scan_vectors=8" (keys: docs/algorithms.md, "Tuning").
#
# Knobs: BUILD (a meson build folder with -Dbench=true, default
# build-bench-gpu; built here if missing), DEVICE (default gpu), BACKENDS
# (default auto), OPS (default scan,compact), MIN_LOG2 / MAX_LOG2 (default
# 20 / 28), REPS (default 10), OUT (default tune-out).
# Each shape runs in its own algorithms-bench process (a fresh engine reads
# CLWARP_ALGO_TUNING); the table gives each shape's GB/s and its ratio to
# the first shape's, per operation, type and n.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
BUILD=${BUILD:-build-bench-gpu}
DEVICE=${DEVICE:-gpu}
BACKENDS=${BACKENDS:-auto}
OPS=${OPS:-scan,compact}
MIN_LOG2=${MIN_LOG2:-20}
MAX_LOG2=${MAX_LOG2:-28}
REPS=${REPS:-10}
OUT=${OUT:-tune-out}
[ $# -gt 0 ] || set -- default
mkdir -p "$OUT"

if [ ! -x "$BUILD/bench/algorithms-bench" ]; then
	[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dtests=false -Dbench=true >/dev/null || exit 1
	ninja -C "$BUILD" bench/algorithms-bench >/dev/null || exit 1
fi

i=0
files=()
for shape in "$@"; do
	tsv="$OUT/shape-$i.tsv"
	printf 'shape %d: %s\n' "$i" "$shape"
	if [ "$shape" = default ]; then
		env -u CLWARP_ALGO_TUNING "$BUILD/bench/algorithms-bench" --device "$DEVICE" --backends "$BACKENDS" \
			--ops "$OPS" --min-log2 "$MIN_LOG2" --max-log2 "$MAX_LOG2" --reps "$REPS" --budget 1 \
			--keep-going --tsv "$tsv" >"$OUT/shape-$i.txt" 2>&1
	else
		CLWARP_ALGO_TUNING=$shape "$BUILD/bench/algorithms-bench" --device "$DEVICE" --backends "$BACKENDS" \
			--ops "$OPS" --min-log2 "$MIN_LOG2" --max-log2 "$MAX_LOG2" --reps "$REPS" --budget 1 \
			--keep-going --tsv "$tsv" >"$OUT/shape-$i.txt" 2>&1
	fi
	rc=$?
	[ $rc = 0 ] || { echo "  exit status $rc:"; tail -n 5 "$OUT/shape-$i.txt"; }
	files+=("$shape=$tsv")
	i=$((i + 1))
done

python3 - "${files[@]}" <<'PY'
import sys
shapes, table = [], {}
for arg in sys.argv[1:]:
    shape, path = arg.rsplit("=", 1)
    shapes.append(shape)
    try:
        lines = open(path).read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        p = line.split("\t")
        if len(p) < 7 or p[0] == "device" or p[1] == "opencl":
            continue
        table.setdefault((p[2], p[3], int(p[4]), p[1]), {})[shape] = float(p[6])
print()
for i, s in enumerate(shapes):
    print(f"  [{i}] {s}")
print("GB/s per shape; ratio = shape / shape [0]")
print(f"{'op':<22}{'type':<7}{'n':>11}{'backend':>8}" + "".join(f"{'[' + str(i) + ']':>10}" for i in range(len(shapes))) + "".join(f"{'[' + str(i) + ']/[0]':>10}" for i in range(1, len(shapes))))
for key in sorted(table):
    row = table[key]
    base = row.get(shapes[0])
    cells = "".join(f"{row[s]:>10.1f}" if s in row else f"{'-':>10}" for s in shapes)
    ratios = "".join(f"{row[s] / base:>10.3f}" if s in row and base else f"{'-':>10}" for s in shapes[1:])
    print(f"{key[0]:<22}{key[1]:<7}{key[2]:>11}{key[3]:>8}{cells}{ratios}")
PY
