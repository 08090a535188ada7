# The same copy kernel through NVIDIA's OpenCL (algorithms-bench's copy
# row, every run of the job) and CUDA (cub-bench's cuda-kernel row, once a
# round): one blocking call (wall) and back to back (b2b), medians in µs.
# Usage: python3 copy-floor.py DIR
import collections, csv, glob, statistics as st, sys

d = collections.defaultdict(list)
for f in glob.glob(sys.argv[1] + '/*.tsv'):
    for r in csv.DictReader(open(f), delimiter='\t'):
        if r['op'] == 'copy':
            d[(r['backend'].split('[')[0], int(r['n']))].append(
                (float(r['wall_ms']) * 1e3, float(r['batch_ms']) * 1e3))
print('n      OpenCL wall   b2b  CUDA wall   b2b  wall diff  b2b diff  (runs)')
for e in range(16, 29):
    o, c = d[('opencl', 1 << e)], d[('cuda-kernel', 1 << e)]
    if not o or not c:
        continue
    ow, ob = st.median(x[0] for x in o), st.median(x[1] for x in o)
    cw, cb = st.median(x[0] for x in c), st.median(x[1] for x in c)
    print(f'2^{e:<4} {ow:9.1f} {ob:6.1f} {cw:9.1f} {cb:6.1f} {ow - cw:+9.1f} {ob - cb:+8.1f}  ({len(o)}, {len(c)})')
