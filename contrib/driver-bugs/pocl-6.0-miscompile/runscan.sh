#!/bin/sh
# runN.sh FIRST LAST MODES...: fresh builds with HEAPSEED=FIRST..LAST, setarch -R; one line per run
first=$1; last=$2; shift 2
for i in $(seq $first $last); do
  r=$(HEAPSEED=$i POCL_KERNEL_CACHE=0 CLWARP_CACHE=0 setarch x86_64 -R ./scanrep "$@" 2>&1 | tr '\n' ' ')
  echo "$i $r"
done
