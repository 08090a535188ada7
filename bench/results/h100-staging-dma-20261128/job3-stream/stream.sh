# Staged copies: chunks filled by non-temporal stores (default) against memcpy (stream=0), alternated.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/st; mkdir -p $O
meson setup /tmp/bs -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/bs bench/copy-bench >/dev/null 2>&1 || { echo build failed; exit 1; }
echo "built at $SECONDS s"
for r in 1 2 3 4 5 6; do for s in stream memcpy; do
  k=""; [ $s = memcpy ] && k=stream=0
  CLWARP_STAGING=$k timeout 60 /tmp/bs/bench/copy-bench --max 256M --reps 7 --tsv $O/$r-$s.tsv > $O/$r-$s.txt 2>&1 || echo "fail $s"
  echo "$r $s: $(awk '$1 ~ /^(write|read)$/ && $2 >= 16777216 {printf "%s %dM %s (%s/%s); ", $1, $2/1048576, $7, $6, $4}' $O/$r-$s.txt)"
done; echo "round $r at $SECONDS s"; [ $SECONDS -gt 170 ] && break; done
cd /tmp && tar czf $OUT/st.tgz st
