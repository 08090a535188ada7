import glob,collections,statistics,sys
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*.tsv'):
    name=f.split('/')[-1][:-4]
    r,rest=name.split('-',1)
    if rest=='cub': v='cub'
    else:
        c,v=rest.rsplit('-',1)
    for line in open(f):
        p=line.rstrip('\n').split('\t')
        if len(p)<6: continue
        d[(v,p[2]+' '+p[3],int(p[4]))].append(float(p[5]))
cases=sorted(set((k[1]) for k in d))
for t in cases:
    vs=sorted(set(k[0] for k in d if k[1]==t and k[0]!='cub'), key=lambda v:(v!='D',v))
    ns=sorted(set(k[2] for k in d if k[1]==t))
    print(f"\n{t}: CUB/ours (both rounds), ms at 2^28")
    print("| variant | " + " | ".join(f"2^{n.bit_length()-1}" for n in ns) + " | ms 2^28 |")
    c={n:statistics.median(d[('cub',t,n)]) for n in ns}
    print("| CUB | " + " | ".join(f"{c[n]:.3f} ms" for n in ns) + f" | {c[ns[-1]]:.3f} |")
    for v in vs:
        cells=[]
        for n in ns:
            x=d.get((v,t,n))
            cells.append("-" if not x else "/".join(f"{c[n]/y:.2f}" for y in x))
        x=d.get((v,t,ns[-1]))
        print(f"| {v} | " + " | ".join(cells) + f" | {statistics.median(x):.3f} |" if x else "")
