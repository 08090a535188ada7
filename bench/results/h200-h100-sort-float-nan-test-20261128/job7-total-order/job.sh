#!/usr/bin/env bash
# Session 30: the sort-total-order branch on the GPU: its sort tests on nv, then
# float keys in both orders against CUB (same build, same job).
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log --oneline -1 2>/dev/null
mkdir -p $OUT/s30
start=$SECONDS
meson setup build-t -Dexamples=false >/dev/null 2>&1 && ninja -C build-t tests/test-sort bench/sort-bench > $OUT/s30/build.log 2>&1 || { tail -20 $OUT/s30/build.log; exit 1; }
echo "built in $((SECONDS - start)) s"
CLWARP_TEST_ONLY=test_sort_total_order,test_sort_small,test_sort_patterns,test_sort_bit_range CLWARP_TEST_QUICK=0 \
	timeout 200 build-t/tests/test-sort > $OUT/s30/test-sort-nv.log 2>&1; echo "test-sort nv rc=$? ($((SECONDS - start)) s)"; tail -3 $OUT/s30/test-sort-nv.log
CASES=keys-float,keys-float-total,keys-uint ROUNDS=3 LIMIT=200 bash bench/sort-ab-gpu.sh $OUT/s30/ab base
cp /tmp/sort-ab/*.ptx $OUT/s30/ab/ 2>/dev/null
cd $OUT && tar czf s30.tgz s30 && rm -rf s30
