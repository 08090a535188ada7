#!/bin/sh
# The PTX of run-length encode's kernel (float keys, clwarp_runs) as NVIDIA's
# OpenCL builds it without and with the look-back naps, from the disk
# cache's CL_PROGRAM_BINARIES; test-runs' run-length encode under both; and
# the SASS where ptxas and cuobjdump are installed (docs/design/lookback.md).
# SPDX-License-Identifier: MIT
#
# Usage, from the repository root: bench/nv-runs-ptx.sh [BUILD_DIR [OUT_DIR]]
# (defaults build-gpu and ptx-runs). Takes a minute or two on an H100.
set -u
build=${1:-build-gpu}
out=${2:-ptx-runs}
rm -rf "$out"
mkdir -p "$out"
# off and naps: the two builds to compare; naps-split (the fenced split
# look-back instead of the packed words) and naps-128x4 (the tile shape
# of the other backends): whether the failure follows the naps alone.
for variant in off:runs_wait=0,runs_poll=0 naps:runs_wait=1150,runs_poll=76 \
	naps-split:runs_wait=1150,runs_poll=76,packed_lookback=0 \
	naps-128x4:runs_wait=1150,runs_poll=76,runs_wg=128,runs_vectors=4; do
	name=${variant%%:*}
	tuning=${variant#*:}
	cache="$out/cache-$name"
	mkdir -m 700 "$cache"
	# A few float run-length encodes: the one build of that variant.
	CLWARP_CACHE_DIR="$cache" CLWARP_ALGO_TUNING="$tuning" \
		CLWARP_STRESS_ALGO=run_length_encode CLWARP_STRESS_TYPE=float \
		CLWARP_STRESS_CALLS=96 CLWARP_STRESS_MAX_N=100000 \
		"$build/tests/test-lookback-stress" >"$out/stress-$name.log" 2>&1
	echo "$name: stress (float run-length encode only) exit $?: $(grep 'calls passed\|call [0-9]*:' "$out/stress-$name.log" | head -1)"
	# The payload of a cache entry starts at byte 88 (src/diskcache.h).
	python3 - "$cache" "$out/runs-$name.ptx" <<'PY'
import glob, sys
found = [open(f, 'rb').read()[88:] for f in glob.glob(sys.argv[1] + '/*.bin')]
found = [p for p in found if b'.entry clwarp_runs' in p]
if len(found) != 1:
    sys.exit('%s: %d runs programs in the cache, expected 1' % (sys.argv[1], len(found)))
open(sys.argv[2], 'wb').write(found[0].rstrip(b'\0'))
PY
	CLWARP_TEST_ONLY=test_run_length_encode CLWARP_CACHE_DIR="$cache" \
		CLWARP_ALGO_TUNING="$tuning" "$build/tests/test-runs" >"$out/test-runs-$name.log" 2>&1
	echo "$name: test-runs run_length_encode exit $?: $(grep -o 'Checks.*' "$out/test-runs-$name.log")"
	grep -m 3 'runs, expected\|is 0x' "$out/test-runs-$name.log"
	f="$out/runs-$name.ptx"
	[ -f "$f" ] || continue
	echo "$name: $(wc -l <"$f") lines; bar.warp.sync $(grep -c 'bar.warp.sync' "$f"), bar.sync $(grep -c 'bar.sync\|barrier.sync' "$f"), shfl.sync $(grep -c 'shfl.sync' "$f"), vote.sync $(grep -c 'vote.sync' "$f"), nanosleep $(grep -c nanosleep "$f"), ld.shared $(grep -c 'ld.shared' "$f"), st.shared $(grep -c 'st.shared' "$f")"
	if command -v ptxas >/dev/null && command -v cuobjdump >/dev/null; then
		arch=$(grep -m 1 '^.target' "$f" | sed 's/.target *//; s/,.*//')
		ptxas -arch="$arch" "$f" -o "$out/runs-$name.cubin" &&
			cuobjdump -sass "$out/runs-$name.cubin" >"$out/runs-$name.sass" &&
			echo "$name: SASS $(wc -l <"$out/runs-$name.sass") lines; WARPSYNC $(grep -c WARPSYNC "$out/runs-$name.sass"), BSSY $(grep -c BSSY "$out/runs-$name.sass"), BSYNC $(grep -c BSYNC "$out/runs-$name.sass"), NANOSLEEP $(grep -c NANOSLEEP "$out/runs-$name.sass")"
	fi
done
if [ -f "$out/runs-off.ptx" ] && [ -f "$out/runs-naps.ptx" ]; then
	diff -u "$out/runs-off.ptx" "$out/runs-naps.ptx" >"$out/runs.diff"
	echo "PTX diff: $(grep -c '^[-+][^-+]' "$out/runs.diff") changed lines in $out/runs.diff"
fi
