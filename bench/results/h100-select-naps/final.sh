#!/usr/bin/env bash
# GPU run 3 (helper, partition-order): the measured table (bench/run-select-gpu.sh), the same
# kernels without the look-back naps for a same-run comparison, and the GPU tests.
set -uo pipefail
H4=$(cd "$(dirname "$0")" && pwd)
cd "$H4/src" || exit 1
source ../../.device/opencl-env.sh >/dev/null
O=${OUT:-/tmp/out}; mkdir -p "$O/sel"
T=$O/tests.txt
{ date -u; meson setup /tmp/bt -Dbench=false >/tmp/bt.log 2>&1 || tail -20 /tmp/bt.log
  timeout 100 ninja -C /tmp/bt tests/test-algorithms tests/test-runs >>/tmp/bt.log 2>&1 || tail -30 /tmp/bt.log; } >"$T" 2>&1
echo "tests built $(date +%T)"
OUT=$O/sel timeout 200 bash bench/run-select-gpu.sh >/dev/null 2>&1; echo "run-select-gpu rc=$? $(date +%T)"
rm -f "$O/sel/code.tar.gz"  # at most 8 files come back
cat "$O/sel/summary.txt"
grep -A3 "clwarp_select" "$O/sel/code.txt" | grep -i "registers" | head -8
echo "== no naps (same kernels, CLWARP_ALGO_TUNING zeros) $(date +%T)"
CLWARP_ALGO_TUNING=select_wait=0,select_poll=0,partition_wait=0,partition_poll=0 timeout 45 \
  build-bench-gpu/bench/algorithms-bench --backends auto --ops compact,compact_sparse,partition_reversed \
  --min-log2 22 --max-log2 28 --reps 40 --budget 2 --keep-going --no-host --tsv "$O/sel/nonap.tsv" >/tmp/nonap.txt 2>&1
echo "rc=$?"
python3 - "$O/sel/clwarp.tsv" "$O/sel/nonap.tsv" <<'PY'
import sys
def load(p):
    r = {}
    for line in open(p):
        x = line.rstrip("\n").split("\t")
        if len(x) >= 7 and x[0] != "device" and x[1] not in ("opencl", "host"):
            r[(x[2], int(x[4]))] = float(x[6])
    return r
a, b = load(sys.argv[1]), load(sys.argv[2])
print(f"{'op':<26}{'n':>11}{'naps':>9}{'none':>9}{'naps/none':>10}")
for k in sorted(b):
    if k in a:
        print(f"{k[0]:<26}{k[1]:>11}{a[k]:9.1f}{b[k]:9.1f}{a[k]/b[k]:10.3f}")
PY
echo "== GPU tests $(date +%T)"
{ export CLWARP_CACHE_DIR=/tmp/tcache
  CLWARP_TEST_ONLY=test_errors,test_compact,test_partition,test_partition_reversed,test_predicates,test_tuning timeout 90 /tmp/bt/tests/test-algorithms; echo "test-algorithms rc=$?"
  CLWARP_TEST_ONLY=test_unique,test_runs_small,test_runs_errors timeout 40 /tmp/bt/tests/test-runs; echo "test-runs rc=$?"; date -u; } >>"$T" 2>&1
tail -8 "$T"
