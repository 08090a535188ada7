#!/bin/bash
# #25 standing at HEAD: reduce/scan/compact/partition_reversed (profiling + no profiling to 2^28),
# hist-rle (profiling + no profiling), CUB for each, then sort if time is left.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
git rev-parse --short HEAD 2>/dev/null
O=$OUT; B=/tmp/bs; C=/tmp/bsc; mkdir -p $C
export CLWARP_CACHE_DIR=/tmp/bs-cache
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o $C/cub-bench) &
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o $C/cub-hist-rle-bench) &
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o $C/cub-sort-bench) &
(meson setup $B -Dtests=false -Dbench=true >/dev/null && ninja -C $B bench/algorithms-bench bench/hist-rle-bench bench/sort-bench >/dev/null) || echo "build failed"
wait
echo "built at $SECONDS s"
COMMON="--device gpu --backends auto --reps 100 --budget 1 --batch 32 --keep-going"
$B/bench/algorithms-bench $COMMON --ops reduce,scan,compact,partition_reversed --min-log2 10 --max-log2 28 --tsv $O/clwarp.tsv > $O/clwarp.txt 2>&1
echo "clwarp $SECONDS s"
$B/bench/algorithms-bench $COMMON --ops reduce,scan,compact,partition_reversed --no-profiling --label no-profiling --min-log2 10 --max-log2 28 --tsv $O/clwarp-noprof.tsv > $O/clwarp-noprof.txt 2>&1
echo "noprof $SECONDS s"
timeout 200 $C/cub-bench --ops reduce,scan,compact,partition --min-log2 10 --max-log2 28 --reps 100 --batch 32 --tsv $O/cub.tsv > $O/cub.txt 2>&1
echo "cub $SECONDS s"
# CUB's DevicePartition::If is our partition_reversed (rejected ones from the end backwards).
for f in clwarp clwarp-noprof; do sed 's/\tpartition_reversed_gt/\tpartition_gt/' $O/$f.tsv > /tmp/$f-r.tsv; done
python3 bench/ratios.py /tmp/clwarp-r.tsv /tmp/clwarp-noprof-r.tsv $O/cub.tsv > $O/ratios.txt 2>&1
$B/bench/hist-rle-bench --device gpu --min-log2 16 --max-log2 28 --reps 9 --batch 16 --tsv $O/hr-clwarp.tsv > $O/hr-clwarp.txt 2>&1
echo "hr $SECONDS s"
$B/bench/hist-rle-bench --device gpu --min-log2 16 --max-log2 28 --reps 9 --batch 16 --no-profiling --label no-profiling --tsv $O/hr-noprof.tsv > $O/hr-noprof.txt 2>&1
echo "hr noprof $SECONDS s"
timeout 150 $C/cub-hist-rle-bench --min-log2 16 --max-log2 28 --reps 9 --batch 16 --tsv $O/hr-cub.tsv > $O/hr-cub.txt 2>&1
echo "hr cub $SECONDS s"
python3 bench/ratios.py $O/hr-clwarp.tsv $O/hr-noprof.tsv $O/hr-cub.tsv > $O/hr-ratios.txt 2>&1
if [ $SECONDS -lt 380 ]; then
  timeout 100 $B/bench/sort-bench --device gpu --min-log2 24 --max-log2 28 --reps 5 --tsv $O/sort-clwarp.tsv > $O/sort-clwarp.txt 2>&1
  echo "sort $SECONDS s"
  timeout 80 $C/cub-sort-bench --min-log2 24 --max-log2 28 --reps 5 --tsv $O/sort-cub.tsv > $O/sort-cub.txt 2>&1
  echo "sort cub $SECONDS s"
  python3 bench/ratios.py $O/sort-clwarp.tsv $O/sort-cub.tsv > $O/sort-ratios.txt 2>&1
fi
sed -n '/^THE THREE MEASURES/,/^SMALL N/p' $O/ratios.txt | head -150
