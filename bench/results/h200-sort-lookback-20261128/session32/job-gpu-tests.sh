#!/usr/bin/env bash
# Session 32: branch sort-lookback-batch on NVIDIA: the look-back stress
# (plain and with naps), the group suites, and test-sort at full sizes.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log --oneline -1
meson setup build-gpu -Dexamples=true >/dev/null 2>&1; ninja -C build-gpu >/dev/null 2>&1 || { echo build failed; exit 1; }
echo "built at $SECONDS s"
(CLWARP_GPU_CHECK_PARTS="stress-0 stress-5000 stress-naps-0 stress-naps-5000 nv-tools" bash tools/gpu-check.sh > "$OUT/check.txt" 2>&1) &
(cd build-gpu && CK_VERBOSE=1 CLWARP_TEST_QUICK=0 timeout 230 tests/test-sort > "$OUT/sort.txt" 2>&1; echo "test-sort rc=$? at $SECONDS s" >> "$OUT/sort.txt") 
wait
grep -E "^(  |---|[0-9]+ passed)" "$OUT/check.txt"; grep -E "Passed|Failed|Error|rc=|Checks" "$OUT/sort.txt" | cut -c1-160
