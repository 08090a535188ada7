#!/bin/bash
# GPU job: main vs branch vs CUB, variants at 2^24-2^28, registers, GPU tests. Every step timed.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" >> $L; }
source .device/opencl-env.sh >/dev/null 2>&1
log "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
(timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -I.hs/bench .hs/bench/cub-sort-bench.cu -o /tmp/cub-sort-bench > /tmp/nvcc.log 2>&1; echo "nvcc rc=$?" >> /tmp/nvcc.log) &
(timeout 200 meson setup build-main -Dtests=false -Dbench=true && timeout 200 ninja -C build-main bench/sort-bench) > /tmp/main-build.log 2>&1 &
(cd .hs && timeout 200 meson setup build-gpu -Dbench=true && timeout 200 ninja -C build-gpu bench/sort-bench tests/test-sort) > /tmp/hs-build.log 2>&1 &
for i in $(seq 1 40); do
	sleep 5
	[ -x /tmp/cub-sort-bench ] && [ -x build-main/bench/sort-bench ] && [ -x .hs/build-gpu/tests/test-sort ] && [ -x .hs/build-gpu/bench/sort-bench ] && break
	[ $((i % 6)) = 0 ] && log "waiting: $(ls /tmp/cub-sort-bench build-main/bench/sort-bench .hs/build-gpu/bench/sort-bench 2>&1 | tr '\n' ' ')"
done
log "built"; tail -3 /tmp/nvcc.log /tmp/main-build.log /tmp/hs-build.log >> $L
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
CLWARP_DEVICE=NVIDIA CLWARP_CACHE_DIR=/tmp/tcache timeout 120 .hs/build-gpu/tests/test-sort > $OUT/tests.txt 2>&1
log "test-sort rc=$?"
{
CLWARP_ALGO_TUNING=sort_pack=1 bench pack1 $B --min-log2 24 --max-log2 28
CLWARP_ALGO_TUNING=sort_items=20 bench items20 $B --min-log2 24 --max-log2 28 --cases keys-uint,keys-float,keys-ulong
CLWARP_ALGO_TUNING=sort_items=20,sort_pack=1 bench items20pack $B --min-log2 24 --max-log2 28 --cases keys-uint,keys-float,keys-ulong
CLWARP_ALGO_TUNING=sort_pairs_items=24 bench pairs24 $B --min-log2 24 --max-log2 28 --cases pairs-uint
bench new2 $B --min-log2 24 --max-log2 28
bench main2 $M --min-log2 24 --max-log2 28
} > $OUT/variants.tsv
CLWARP_TEST_QUICK=1 CLWARP_ALGO_TUNING=sort_pack=1 CLWARP_DEVICE=NVIDIA CLWARP_CACHE_DIR=/tmp/tcache timeout 60 .hs/build-gpu/tests/test-sort >> $OUT/tests.txt 2>&1
log "test-sort pack1 rc=$?"
# Registers: each case's kernels in a cache of their own, their PTX through ptxas.
for tun in default sort_pack=1; do
	for c in keys-uint keys-float pairs-uint keys-ulong; do
		d=/tmp/rc-$tun-$c
		CLWARP_ALGO_TUNING=${tun#default} CLWARP_CACHE_DIR=$d timeout 30 $B --device gpu --reps 1 --min-log2 16 --max-log2 16 --cases $c >/dev/null 2>&1
		for f in $(grep -rl clwarp_sort_pass $d 2>/dev/null); do
			python3 - "$f" /tmp/k.ptx <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
i = b.find(b'.version')
j = b.find(b'\0', i)
open(sys.argv[2], 'wb').write(b[i:j if j > 0 else len(b)])
PY
			echo "$tun $c $(timeout 30 ptxas -arch=sm_90 -v /tmp/k.ptx -o /tmp/k.cubin 2>&1 | grep -A1 "'clwarp_sort_pass'" | grep -o "Used [0-9]* registers.*")"
		done
	done
done > $OUT/regs.txt 2>&1
log "regs done"
