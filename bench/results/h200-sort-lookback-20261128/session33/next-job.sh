#!/usr/bin/env bash
# The next sort job (not run yet), on an H200, from the repository root
# with .device/ carried, main's tree sent (22738e3's kernels or later):
#   base      main: pairs staged as ranked, at the H200's 80 registers and 24 keys
#   lbpairs2  pairs walk back in batches of 2 (lbpairs2-on-batch.diff, which
#             applies to 22738e3's sort.cl; it gave 0.98-0.99x at 2^24-2^26
#             before the pairs were staged as ranked)
#   i20, i28  tiles of 256 x 20 and 256 x 28 at 80 registers: 22738e3 spills
#             24 bytes there instead of 36, so the best tile may have moved
#   earlyv    the values load with the keys, in flight through the ranking
#             (earlyv.diff; test-sort passed on PoCL 3.1, also with the
#             look-back forced)
# Both diffs also apply to the branch sort-stage-nv (f392a08).
# ptxas.txt names each kernel by its case since d2cda0c. About 250 s.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
D=bench/results/h200-sort-lookback-20261128/session33
mkdir -p "$OUT/p"
CASES=pairs-uint ROUNDS=3 LIMIT=200 bash bench/sort-ab-gpu.sh "$OUT/p/shapes" \
	base lbpairs2:$D/lbpairs2-on-batch.diff i20::sort_pairs_items=20 i28::sort_pairs_items=28 \
	earlyv:$D/earlyv.diff
cd "$OUT" && tar czf p.tgz p && rm -rf p
