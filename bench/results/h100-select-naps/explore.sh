#!/usr/bin/env bash
# GPU run 1 (helper, partition-order): build, GPU tests of the new call and the new ranks,
# CUB's register use, select-kernel experiments (CLWARP_ALGO_TUNING shapes).
set -uo pipefail
H4=$(cd "$(dirname "$0")" && pwd)
cd "$H4/src" || exit 1
source ../../.device/opencl-env.sh
O=${OUT:-/tmp/out}; mkdir -p "$O"
exec > >(tee "$O/log.txt") 2>&1
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; nvcc --version | tail -1
mkdir -p /tmp/cuda
[ -n "${SKIP_CUB:-}" ] || ( timeout 150 nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v bench/cub-bench.cu -o /tmp/cuda/cub-bench >/tmp/cuda/cub.log 2>&1
  cuobjdump -res-usage /tmp/cuda/cub-bench >/tmp/cuda/res.txt 2>&1 ) &
CUBPID=$!; [ -n "${SKIP_CUB:-}" ] && CUBPID=
meson setup /tmp/b -Dbench=true >/tmp/setup.log 2>&1 || tail -20 /tmp/setup.log
timeout 120 ninja -C /tmp/b tests/test-algorithms tests/test-runs bench/algorithms-bench >/tmp/ninja.log 2>&1 || tail -30 /tmp/ninja.log
if [ -z "${SKIP_TESTS:-}" ]; then echo "== tests"
export CLWARP_CACHE_DIR=/tmp/tcache
CLWARP_TEST_ONLY=test_errors,test_compact,test_partition,test_partition_reversed,test_tuning timeout 90 /tmp/b/tests/test-algorithms; echo "test-algorithms rc=$?"
CLWARP_TEST_ONLY=test_unique,test_runs_small timeout 40 /tmp/b/tests/test-runs; echo "test-runs rc=$?"; fi
echo "== shapes"
OPS=${OPS:-compact,compact_sparse,partition_reversed}
i=0
for shape in "$@"; do
  export CLWARP_CACHE_DIR=/tmp/cache$i CLWARP_ALGO_TUNING=$shape
  [ "$shape" = default ] && unset CLWARP_ALGO_TUNING
  echo "shape $i: $shape ($(date +%T))"
  timeout ${SHAPE_S:-45} /tmp/b/bench/algorithms-bench --backends auto --ops "$OPS" --min-log2 ${MIN_LOG2:-24} --max-log2 28 \
    --reps ${REPS:-20} --budget 1 --keep-going --no-host --tsv /tmp/shape-$i.tsv >/tmp/shape-$i.txt 2>&1 || { echo "rc=$?"; tail -5 /tmp/shape-$i.txt; }
  python3 - "$CLWARP_CACHE_DIR" $i <<'PY'
import os, sys, subprocess
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        d = open(os.path.join(root, name), "rb").read()
        if d.startswith(b"CLWARPC") and b".entry clwarp_select" in d:
            p = f"/tmp/s{sys.argv[2]}-{name[:8]}.ptx"
            open(p, "wb").write(d[88:].rstrip(b"\0"))
            r = subprocess.run(["ptxas", "-arch=sm_90", "-v", p, "-o", "/dev/null"], capture_output=True, text=True)
            for l in (r.stdout + r.stderr).splitlines():
                if "clwarp_select" in l or ("registers" in l and "Used" in l) or "error" in l:
                    print("  ", l.strip())
PY
  i=$((i + 1))
done
unset CLWARP_ALGO_TUNING
python3 - "$@" <<'PY'
import sys
shapes = sys.argv[1:]
t = {}
for i, _ in enumerate(shapes):
    try:
        for line in open(f"/tmp/shape-{i}.tsv"):
            p = line.rstrip("\n").split("\t")
            if len(p) >= 7 and p[0] != "device" and p[1] not in ("opencl", "host"):
                t.setdefault((p[2], int(p[4])), {})[i] = float(p[6])
    except OSError:
        pass
for i, s in enumerate(shapes):
    print(f"  [{i}] {s}")
print(f"{'op':<26}{'n':>11}" + "".join(f"{'['+str(i)+']':>9}" for i in range(len(shapes))) + "".join(f"{'['+str(i)+']/[0]':>9}" for i in range(1, len(shapes))))
for (op, n), v in sorted(t.items()):
    b = v.get(0)
    print(f"{op:<26}{n:>11}" + "".join(f"{v[i]:9.1f}" if i in v else f"{'-':>9}" for i in range(len(shapes)))
          + "".join(f"{v[i]/b:9.3f}" if i in v and b else f"{'-':>9}" for i in range(1, len(shapes))))
PY
[ -n "$CUBPID" ] && wait $CUBPID
echo "== CUB resource usage (select / partition kernels)"
grep -B1 -A1 -i "select\|partition" /tmp/cuda/res.txt | grep -v "^--" | sed 's/^\s*//' | cut -c1-300 | head -40
(cd /tmp && tar -czf "$O/raw.tar.gz" shape-*.tsv shape-*.txt cuda 2>/dev/null)
date -u
