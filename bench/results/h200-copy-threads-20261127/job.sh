source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
O=/tmp/cth; mkdir -p $O
meson setup /tmp/bc -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/bc bench/copy-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
S="default threads=4 threads=6 threads=8 threads=10"
for r in 1 2 3 4; do for s in $S; do
 k=""; [ $s != default ] && k=$s
 CLWARP_STAGING=$k /tmp/bc/bench/copy-bench --max 256M --reps 7 --tsv $O/$r-$s.tsv > $O/$r-$s.txt 2>&1 || echo "fail $s"
done; echo "round $r $SECONDS"; done
cd /tmp && tar czf $OUT/cth.tgz cth
