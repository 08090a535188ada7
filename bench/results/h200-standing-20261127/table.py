#!/usr/bin/env python3
"""CUB's time over libclwarp's per call and size, by measure, as a markdown table.

Usage: table.py MIN_LOG2:MAX_LOG2 TSV... (algorithms-bench, hist-rle-bench,
sort-bench and their CUB twins' rows; rows "nv[no-profiling]" are the
users' engine). Bold: under 0.95. partition_reversed_* is paired with
CUB's partition_* (CUB's DevicePartition::If writes the rejected elements
from the end backwards, as clwarp_partition_reversed does).
"""
import sys, collections, math
def load(paths):
    d={}
    for p in paths:
        for line in open(p):
            f=line.rstrip('\n').split('\t')
            if f[0]=='device' or len(f)<6: continue
            be,op,ty,n=f[1],f[2],f[3],int(f[4])
            ms=float(f[5]); wall=float(f[7]) if len(f)>7 else None; b2b=float(f[9]) if len(f)>9 else None
            d[(be,op.replace('partition_reversed_gt','partition_gt'),ty,n)]=(ms,wall,b2b)
    return d
d=load(sys.argv[2:])
lo,hi=map(int,sys.argv[1].split(':'))
keys=sorted({(op,ty) for (be,op,ty,n) in d if be=='cub'})
sizes=[1<<l for l in range(lo,hi+1,2)]
print('| call | measure | '+' | '.join('2^%d'%int(math.log2(n)) for n in sizes)+' |')
print('| --- | --- | '+' | '.join('---:' for _ in sizes)+' |')
for op,ty in keys:
    rows=[('blocking, users\' engine','nv[no-profiling]',1),('blocking, profiling engine','nv',1),('back to back, users\' engine','nv[no-profiling]',2),('event','nv',0)]
    first=True
    for name,be,i in rows:
        cells=[]
        for n in sizes:
            a=d.get((be,op,ty,n)); c=d.get(('cub',op,ty,n))
            if not a or not c or a[i] is None or c[i] is None: cells.append(''); continue
            r=c[i]/a[i]; s='%.2f'%r
            cells.append('**%s**'%s if r<0.95 else s)
        if all(x=='' for x in cells): continue
        print('| %s | %s | '%(op+' '+ty if first else '',name)+' | '.join(cells)+' |')
        first=False
