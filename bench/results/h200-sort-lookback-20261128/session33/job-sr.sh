#!/usr/bin/env bash
# Job 3 (session 33): the tree sent is 6e0b731. sr.diff stages each key as
# it is ranked (keys alone and pairs); srp.diff also ranks keys alone
# with each key's peers in turn, as pairs do; srp48 adds a cap of 48
# registers (5 work-groups of 256 an SM for 4-byte keys).
source .device/opencl-env.sh >/dev/null 2>&1
mkdir -p $OUT/s
CASES=keys-uint,keys-float,pairs-uint ROUNDS=2 LIMIT=150 bash bench/sort-ab-gpu.sh $OUT/s/sr base \
	sr:.device/exp/sr.diff srp:.device/exp/srp.diff srp48:.device/exp/srp.diff:sort_regs=48
