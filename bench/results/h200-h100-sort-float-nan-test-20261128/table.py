#!/usr/bin/env python3
"""Per job: each variant's median sort time (ms) over the rounds, the
rounds' range, and CUB's median over it, from the jobs' TSVs."""
import collections, glob, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
for job in sorted(glob.glob(os.path.join(here, 'job*'))):
    times = collections.defaultdict(list)
    for f in sorted(glob.glob(os.path.join(job, '*.tsv'))):
        label = os.path.basename(f)[:-4].split('-', 1)[1]
        for row in open(f):
            c = row.rstrip('\n').split('\t')
            if len(c) >= 6 and not c[0].startswith('#'):
                times[(c[3], int(c[4]), label)].append(float(c[5]))
    print('## %s' % os.path.basename(job))
    print('| case | variant | 2^24 ms | 2^26 ms | 2^28 ms | CUB / it at 2^24, 2^26, 2^28 |')
    print('| --- | --- | --- | --- | --- | --- |')
    for case in sorted({k[0] for k in times}):
        for label in sorted({k[2] for k in times if k[0] == case and k[2] != 'cub'}):
            cells, ratios = [], []
            for n in (1 << 24, 1 << 26, 1 << 28):
                v = times.get((case, n, label))
                # CUB has no NaN case; its float order is the total order.
                cub = times.get((case.split('-')[0], n, 'cub'))
                if not v:
                    cells.append('')
                    continue
                m = statistics.median(v)
                cells.append('%.3f (%.3f-%.3f)' % (m, min(v), max(v)))
                if cub and case != 'float-nan':
                    ratios.append('%.2f' % (statistics.median(cub) / m))
            print('| %s | %s | %s | %s |' % (case, label, ' | '.join(cells), ', '.join(ratios)))
    print()
