#!/bin/sh
# runN.sh FILE N: compile+run FILE N times (fresh compile, ASLR off, varied heap); print failures
f=$1; n=${2:-40}; bad=0
for i in $(seq 1 $n); do HEAPSEED=$i POCL_KERNEL_CACHE=0 setarch x86_64 -R ${HOST:-./host} $f > /tmp/runN.out 2>&1; grep -q "ok$" /tmp/runN.out || bad=$((bad+1)); done
echo "$f: $bad / $n failed"
