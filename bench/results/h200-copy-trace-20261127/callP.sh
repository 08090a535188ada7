#!/bin/bash
# Call P: the per-piece timeline of staged copies (src/staging_trace.c).
source .device/opencl-env.sh >/dev/null 2>&1
O=$OUT
nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv > $O/gpu.txt
{ lscpu; echo; for d in /sys/bus/pci/devices/*; do [ -f $d/class ] && grep -q 0x0302 $d/class && echo "$d numa_node=$(cat $d/numa_node)"; done; cat /proc/meminfo | head -5; } > $O/host.txt 2>&1
t=$SECONDS
meson setup /tmp/b -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b bench/copy-bench bench/host-memcpy-bench >/dev/null || echo "build failed"
echo "build: $((SECONDS-t)) s"
B=/tmp/b/bench
$B/copy-bench --device gpu --max 256M --reps 7 > $O/plain-1.txt 2>&1
CLWARP_LOG_LEVEL=debug $B/copy-bench --device gpu --profiling --max 256M --reps 5 > $O/trace.txt 2>&1
$B/copy-bench --device gpu --max 256M --reps 7 > $O/plain-2.txt 2>&1
for th in 8 16; do CLWARP_STAGING=threads=$th CLWARP_LOG_LEVEL=debug $B/copy-bench --device gpu --profiling --max 64M --reps 5 > $O/trace-t$th.txt 2>&1; done
echo "runs: $((SECONDS-t)) s"
grep -c "staging trace: write\|staging trace: read" $O/trace.txt
