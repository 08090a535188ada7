#!/usr/bin/env bash
# Job 2 (session 33): the tree sent is 6e0b731 (main after the batches of
# 4 merged). mainold.diff takes the batches out again (main before);
# lbpre-on-batch.diff and lbpairs2-on-batch.diff are session 32's
# lbpre.diff and lbpairs2.diff made again against this tree.
source .device/opencl-env.sh >/dev/null 2>&1
mkdir -p $OUT/n
CASES=keys-uint,keys-float,pairs-uint ROUNDS=3 LIMIT=230 bash bench/sort-ab-gpu.sh $OUT/n/lb base \
	mainold:.device/exp/mainold.diff lbpre:.device/exp/lbpre-b.diff lbpairs2:.device/exp/lbpairs2-b.diff
