import csv,glob,statistics as st,collections,sys
d=collections.defaultdict(list)
for f in sorted(glob.glob('*.tsv')):
    r,l=f[:-4].split('-',1)
    for row in csv.reader(open(f),delimiter='\t'):
        if row[0].startswith('#') or row[0]=='case': continue
        d[(row[2]+'-'+row[3],int(row[4]),l)].append(float(row[5]))
cases=sorted(set((k[0],k[1]) for k in d))
for c,n in cases:
    cub=st.median(d[(c,n,'cub')])
    print(c, n.bit_length()-1, ' '.join('%s=%.3f(%.2f)'%(l,st.median(v),cub/st.median(v)) for (cc,nn,l),v in sorted(d.items()) if (cc,nn)==(c,n)))
