#!/bin/bash
# What the flow rewrite costs (docs/warp-api.md, "Warps built from barriers"):
# each kernel with warp calls under a branch or a loop whose trips differ by
# warp (*_div.cl, as CUDA code writes it) beside the same computation written
# with every warp making every call (*_conv.cl, which needs no rewrite).
#   bench/flow/run.sh CLWARP_RUN BACKEND REPEAT [SCALE]
# prints clwarp-run's min/median/max kernel time of each; SCALE multiplies
# the sizes (1: 2^18 floats for the block sums, 2^21 for the grid-stride loop).
R=$1; B=$2; N=$3; S=${4:-1}
g=$((262144*S)); blocks=$((g/256))
for k in block_div block_conv; do
  printf "%s " $k; $R $(dirname "$0")/$k.cl -b $B -g $g -l 256 -a "float[$g]=fill(1)" -a "out:float[$blocks]" --repeat $N 2>&1 | grep "^time" ; done
ch=$((65536*S)); n=$((ch*32))
for k in stride_div stride_conv; do
  printf "%s " $k; $R $(dirname "$0")/$k.cl -b $B -g $((8192*S)) -l 256 -a "float[$n]=fill(1)" -a "out:float[$ch]" -a int:$((ch - 7)) --repeat $N 2>&1 | grep "^time"; done
