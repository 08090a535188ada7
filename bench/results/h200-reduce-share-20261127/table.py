import glob,csv,collections,statistics,sys
root=sys.argv[1]
d=collections.defaultdict(list)
for f in sorted(glob.glob(root+'/*.tsv')):
    for r in csv.DictReader(open(f),delimiter='\t'):
        if r['op']!='reduce_add': continue
        lab='cub' if 'cub' in f else f.split('/')[-1][2:-4]
        d[(lab,r['type'],int(r['n']))].append((float(r['wall_ms'])*1000,float(r['batch_ms'])*1000))
labs=sorted({k[0] for k in d}, key=lambda l:(l=='cub',l))
for ty in ['float','int']:
  for k,idx in (('wall',0),('b2b',1)):
    print(ty,k,'(median of rounds; ratio cub/x)')
    print('     '+' '.join(f'{l[:16]:>16}' for l in labs))
    for e in range(16,29):
        n=1<<e
        if (labs[0],ty,n) not in d: continue
        cub=statistics.median(x[idx] for x in d[('cub',ty,n)])
        row=[]
        for l in labs:
            v=statistics.median(x[idx] for x in d[(l,ty,n)])
            row.append(f"{v:6.1f} ({cub/v:4.2f})")
        print(f"2^{e:<3}", ' '.join(f'{x:>16}' for x in row))
