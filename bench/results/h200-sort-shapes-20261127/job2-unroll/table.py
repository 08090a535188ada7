import glob,collections,statistics,sys
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*.tsv'):
    r,v=f.split('/')[-1][:-4].split('-',1)
    for line in open(f):
        p=line.rstrip('\n').split('\t')
        if len(p)<6: continue
        d[(v,p[2]+' '+p[3],int(p[4]))].append(float(p[5]))
keys=sorted(set((k[1],k[2]) for k in d))
print("| case | n | CUB ms | main ms (3 rounds) | unrolled ms | CUB/main | CUB/unrolled | main/unrolled |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for t,n in keys:
    c=d.get(('cub',t,n)); b=d.get(('base',t,n)); w=d.get(('new',t,n))
    if not (c and b and w): continue
    mc,mb,mw=statistics.median(c),statistics.median(b),statistics.median(w)
    print(f"| {t} | 2^{n.bit_length()-1} | {mc:.3f} | {min(b):.3f}-{max(b):.3f} | {min(w):.3f}-{max(w):.3f} | {mc/mb:.2f} | {mc/mw:.2f} | {mb/mw:.3f} |")
