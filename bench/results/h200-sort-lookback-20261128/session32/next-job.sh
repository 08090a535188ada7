#!/usr/bin/env bash
# The next sort job (not run yet). First merge the branch: the whole GPU
# check at sort-lookback-batch's head (bash .device/check.sh, in a call of
# its own), then fast-forward main to it. This job then times, against
# main before the merge (75f5676's kernels):
#   lbkeys    the branch (keys walk back in batches of 4)
#   lbpre     the branch, with the first batch requested before the keys are staged
#   lbpairs2  the branch, with pairs walking back in batches of 2 (pairs keep 1 there)
# Copy lbkeys.diff, lbpre.diff and lbpairs2.diff under .device/exp/ first;
# each is `git diff 75f5676 -- kernels`, so send a tree whose sort.cl is
# 75f5676's (main before the merge) or make the diffs again against the
# tree sent.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/n"
CASES=keys-uint,keys-float,pairs-uint ROUNDS=3 LIMIT=200 bash bench/sort-ab-gpu.sh "$OUT/n/lb" \
	base lbkeys:.device/exp/lbkeys.diff lbpre:.device/exp/lbpre.diff lbpairs2:.device/exp/lbpairs2.diff
cd "$OUT" && tar czf n.tgz n && rm -rf n
