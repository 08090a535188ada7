#!/bin/bash
# Job 2: main's kernel (before) against the branch's (after) and CUB, a few
# tuning variants and diagnostics of the branch's kernel, ptxas -v, test-runs.
set -u
cd "$(dirname "$0")/.." || exit 1
[ -f .device/opencl-env.sh ] && source .device/opencl-env.sh >/dev/null 2>&1
R=${OUT:-/tmp/out}; J=$PWD/job; T=$R/all.tsv; DEV=${DEV:-gpu}; MAXL=${MAXL:-28}; MINL=${MINL:-20}
mkdir -p "$R"; : >"$T"
echo "== $(date +%T) start"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
for d in before diag; do
	rm -rf /tmp/$d; mkdir -p /tmp/$d
	tar --exclude='./build*' --exclude=./job -cf - . | tar -xf - -C /tmp/$d
done
cp "$J/runs-main.cl" /tmp/before/kernels/algorithms/runs.cl
(cd /tmp/diag && patch -p1 <"$J/diag.patch" >/dev/null) || echo "diag patch failed"
build() { (cd "$1" && meson setup "$2" -Dbench=true -Dtests="$3" >/dev/null 2>&1 && ninja -C "$2" bench/hist-rle-bench $4 >/dev/null 2>&1) || echo "build $1 failed"; }
build /tmp/before b false "" & p1=$!
build /tmp/diag b false "" & p2=$!
build "$PWD" build-gpu true tests/test-runs & p3=$!
wait $p1 $p2 $p3
echo "== $(date +%T) built"
# bench LABEL BINDIR CACHE OPS MIN [extra]; tuning from $TUN
bench() {
	local label=$1 bin=$2 ck=$3 op=$4 min=$5; shift 5
	CLWARP_CACHE_DIR=/tmp/c/$ck CLWARP_ALGO_TUNING=${TUN:-} timeout 150 "$bin/bench/hist-rle-bench" --device "$DEV" \
		--min-log2 "$min" --max-log2 "$MAXL" --reps 10 --only "$op" --tsv /tmp/one.tsv "$@" >/tmp/one.out 2>&1 || { echo "FAIL $label $op"; tail -3 /tmp/one.out; }
	[ -f /tmp/one.tsv ] || return
	awk -v l="$label" -F'\t' '{ printf "%s\t%s\t%s\t%s\t%s\n", l, $3, $4, $5, $6 }' /tmp/one.tsv >>"$T"
	awk -v l="$label" -F'\t' '{ printf "%-7s %-8s 2^%-3d %9.4f ms\n", l, $3, log($5)/log(2)+0.5, $6 }' /tmp/one.tsv
	rm -f /tmp/one.tsv
}
bench before /tmp/before/b before rle1,rle4,rle64,rbk1,rbk4,rbk64 "$MINL"
bench after build-gpu after rle1,rle4,rle64,rbk1,rbk4,rbk64,unique4 "$MINL"
timeout 150 "$J/cubb" --min-log2 "$MINL" --max-log2 "$MAXL" --reps 10 --only rle1,rle4,rle64,rbk1,rbk4,rbk64,unique4 \
	--tsv /tmp/one.tsv >/dev/null 2>&1 || echo "FAIL cub"
if [ -f /tmp/one.tsv ]; then
	awk -F'\t' '{ printf "cub\t%s\t%s\t%s\t%s\n", $3, $4, $5, $6 }' /tmp/one.tsv >>"$T"
	awk -F'\t' '{ printf "%-7s %-8s 2^%-3d %9.4f ms\n", "cub", $3, log($5)/log(2)+0.5, $6 }' /tmp/one.tsv
	rm -f /tmp/one.tsv
fi
echo "== $(date +%T) main table done"
i=0
for tun in runs_wait=1150,runs_poll=76 runs_vectors=5 runs_vectors=6 runs_wg=128; do
	i=$((i + 1)); echo "t$i = $tun"
	TUN=$tun bench "t$i" build-gpu "t$i" rle1,rle4,rle64 24
done
for e in 3 4; do TUN=runs_exp=$e bench "exp$e" /tmp/diag/b "exp$e" rle4,rle64 24 --no-check 1; done
echo "== $(date +%T) variants done"
python3 - /tmp/c <<'PY'
import os, sys
cache = sys.argv[1]
for label in sorted(os.listdir(cache)):
    n = 0
    for root, _, files in os.walk(os.path.join(cache, label)):
        for name in sorted(files):
            data = open(os.path.join(root, name), "rb").read()
            if data.startswith(b"CLWARPC") and b".entry clwarp_runs" in data:
                open(f"/tmp/ptx-{label}-{n}.ptx", "wb").write(data[88:].rstrip(b"\0"))
                n += 1
PY
for f in /tmp/ptx-*.ptx; do
	[ -f "$f" ] || continue
	echo "## $(basename "$f" .ptx) $(grep -c 'ld.global' "$f") global loads"
	ptxas -arch=sm_90 -v "$f" -o /tmp/x.cubin 2>&1 | grep -i "registers\|spill"
done >"$R/ptxas.txt" 2>&1
cat "$R/ptxas.txt"
echo "== $(date +%T) tests"
CLWARP_DEVICE=NVIDIA CLWARP_TEST_QUICK=1 CLWARP_CACHE_DIR=/tmp/c/tests timeout 120 build-gpu/tests/test-runs 2>&1 | tail -2
echo "== $(date +%T) end"
