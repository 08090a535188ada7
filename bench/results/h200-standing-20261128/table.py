#!/usr/bin/env python3
"""CUB's time over ours per call, size and round, from this folder's TSVs:
blocking call (wall_ms) and back to back (batch_ms), medians of the rounds."""
import collections, glob, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
d = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(here, '*.tsv'))):
    for line in open(f):
        c = line.rstrip('\n').split('\t')
        if len(c) < 10 or c[0] == 'device':
            continue
        be = c[1].split('[')[0]
        if be in ('nv', 'cub'):
            d[(c[2], c[3], int(c[4]), be, 'wall')].append(float(c[7]))
            d[(c[2], c[3], int(c[4]), be, 'b2b')].append(float(c[9]))
print('| call | n | ours, blocking µs (rounds) | CUB | CUB / ours, median (rounds) | back to back |')
print('| --- | --- | --- | --- | --- | ---: |')
for k in sorted({k[:3] for k in d}):
    ours, cub = d.get(k + ('nv', 'wall')), d.get(k + ('cub', 'wall'))
    if not ours or not cub:
        continue
    per_round = [c / o for c, o in zip(cub, ours)]
    b2b = statistics.median(d[k + ('cub', 'b2b')]) / statistics.median(d[k + ('nv', 'b2b')])
    print('| %s %s | 2^%d | %s | %s | %.2f (%.2f-%.2f) | %.2f |' % (
        k[0], k[1], k[2].bit_length() - 1, ' / '.join('%.1f' % (x * 1e3) for x in ours),
        ' / '.join('%.1f' % (x * 1e3) for x in cub), statistics.median(cub) / statistics.median(ours),
        min(per_round), max(per_round), b2b))
