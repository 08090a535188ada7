#!/bin/bash
# GPU job: main vs branch vs CUB (2^16-2^28), the branch with 64-bit words, GPU tests. Every step timed.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" >> $L; }
source .device/opencl-env.sh >/dev/null 2>&1
log "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
(timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -I.hs/bench .hs/bench/cub-sort-bench.cu -o /tmp/cub-sort-bench > /tmp/nvcc.log 2>&1; echo "nvcc rc=$?" >> /tmp/nvcc.log) &
(timeout 200 meson setup build-main -Dtests=false -Dbench=true && timeout 200 ninja -C build-main bench/sort-bench) > /tmp/main-build.log 2>&1 &
(cd .hs && timeout 200 meson setup build-gpu -Dbench=true && timeout 200 ninja -C build-gpu bench/sort-bench tests/test-sort) > /tmp/hs-build.log 2>&1 &
for i in $(seq 1 40); do
	sleep 3
	[ -x /tmp/cub-sort-bench ] && [ -x build-main/bench/sort-bench ] && [ -x .hs/build-gpu/tests/test-sort ] && [ -x .hs/build-gpu/bench/sort-bench ] && break
done
sleep 1
log "built"
B=.hs/build-gpu/bench/sort-bench
M=build-main/bench/sort-bench
bench() { # label args...
	local l=$1; shift
	rm -f /tmp/t.tsv
	CLWARP_CACHE_DIR=/tmp/cache-$l timeout 100 "$@" --device gpu --reps 10 --tsv /tmp/t.tsv >/dev/null 2>/tmp/err.txt || { log "$l failed"; tail -3 /tmp/err.txt >> $L; }
	awk -v l="$l" '{ print l "\t" $0 }' /tmp/t.tsv
	log "$l done"
}
bench main $M --max-log2 28 > $OUT/main.tsv
bench new $B --max-log2 28 > $OUT/new.tsv
timeout 100 /tmp/cub-sort-bench --max-log2 28 --reps 10 --tsv $OUT/cub.tsv > /dev/null 2>>$L || log "cub failed"
log "cub done"
CLWARP_ALGO_TUNING=sort_lookback=3 bench word64 $B --min-log2 24 --max-log2 28 --cases keys-uint,keys-float > $OUT/variants.tsv
CLWARP_TEST_QUICK=1 CLWARP_TEST_ONLY=test_sort_passes,test_sort_keys,test_sort_pairs CLWARP_DEVICE=NVIDIA CLWARP_CACHE_DIR=/tmp/tcache timeout 90 .hs/build-gpu/tests/test-sort > $OUT/tests.txt 2>&1
log "test-sort rc=$?"
