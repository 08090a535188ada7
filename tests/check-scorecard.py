#!/usr/bin/env python3
# bench/scorecard.py against an independent reading of the same data: the
# TSVs of one recorded H200 job (bench/results/h200-standing-20261127) and
# the tables that job's own table.py made from them. Every cell of the
# measures the scorecard judges (blocking call on the users' engine; event
# time for the sorts) must agree to the printed two decimals, the
# scorecard must call the job's known misses missed, and mark with '~'
# exactly the blocking misses that the job's own copy kernels' floor
# covers, computed here again from the raw rows.
import importlib.util
import io
import os
import re
import sys
from contextlib import redirect_stdout

bench, results = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("scorecard", os.path.join(bench, "scorecard.py"))
scorecard = importlib.util.module_from_spec(spec)
spec.loader.exec_module(scorecard)

tsvs = [os.path.join(results, f) for f in sorted(os.listdir(results)) if f.endswith(".tsv")]
rows = scorecard.read(tsvs)
ours = {}
for target in scorecard.TARGETS:
    for call, l2, text, _, _ in scorecard.against_cub(rows, target):
        ours[(call, l2)] = text

# table.py pairs partition_reversed_* with CUB's partition_* under CUB's name.
measure_of = {"blocking, users' engine": "blocking", "event": "event"}
checked, failures = 0, []
for table in ("table-algorithms.md", "table-hist-rle.md", "table-sort.md"):
    sizes, call = [], None
    for line in open(os.path.join(results, table)):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "call":
            sizes = [int(c[2:]) for c in cells[2:]]
            continue
        if len(cells) < 3 or cells[1].startswith("---"):
            continue
        call = cells[0] or call
        if measure_of.get(cells[1]) is None:
            continue
        if measure_of[cells[1]] == "event" and not call.startswith("sort"):
            continue
        name = call.replace("partition_gt", "partition_reversed_gt")
        for l2, cell in zip(sizes, cells[2:]):
            want = cell.strip("*")
            got = ours.get((name, l2))
            if not want or got is None:
                continue
            checked += 1
            if got.rstrip("*!") != want and abs(float(got.rstrip("*!")) - float(want)) > 0.0051:
                failures.append("%s 2^%d: scorecard %s, %s %s" % (name, l2, got, table, want))

print("%d cells compared, %d differ" % (checked, len(failures)))
# 140 with the current tables: 7 sizes of 16 calls from 2^16, 4 of 4 from 2^22, 3 of 4 sorts.
if checked < 140:
    print("too few cells compared: the tables or the scorecard's names changed")
    sys.exit(1)

# The job's known misses: reduce at 2^24 (float 0.89), rle64 at 2^16 (0.85),
# float keys at 2^28 (0.81); and its exit status says so.
out = io.StringIO()
with redirect_stdout(out):
    status = scorecard.main(tsvs)
text = out.getvalue()
for call, l2 in (("reduce_add float", 24), ("rle64 uint", 16), ("sort_keys float", 28)):
    if not re.search(r"%s .*2\^%d 0\.\d+!" % (re.escape(call), l2), text):
        failures.append("scorecard does not mark %s at 2^%d missed" % (call, l2))
if status != 1:
    failures.append("scorecard exit status %d on a job with misses, not 1" % status)

# The blocking floor's '~', read again from the raw rows (one round each):
# a miss is within the floor when CUB's wall time over ours less
# (OpenCL's copy kernel's wall time less CUDA's) reaches 0.95.
wall = {}
for name in ("clwarp-noprof.tsv", "hr-noprof.tsv", "cub.tsv", "hr-cub.tsv"):
    for line in open(os.path.join(results, name)):
        c = line.rstrip("\n").split("\t")
        if c[0] != "device":
            side = {"nv[no-profiling]": "ours", "opencl[no-profiling]": "ours"}.get(c[1], c[1])
            wall[(side, c[2].replace("partition_gt", "partition_reversed_gt"), c[3], int(c[4]))] = float(c[7])
floored = 0
section = ""
for line in text.splitlines():
    if not line.startswith("  "):
        section = line
        continue
    m = re.match(r"  (\S+) (\S+) +(2\^.*?)( +<-)?$", line)
    if not section.startswith("blocking call, at least") or not m:
        continue
    op, typ = m.group(1), m.group(2)
    for l2, cell in re.findall(r"2\^(\d+) ([0-9.*!~]+)", m.group(3)):
        if "!" not in cell:
            continue
        n = 1 << int(l2)
        floor = wall[("ours", "copy", "float", n)] - wall[("cuda-kernel", "copy", "float", n)]
        cub = wall[("cub", op.replace("partition_reversed_gt", "partition_gt"), typ, n)]
        mine = wall[("ours", op, typ, n)]
        want = floor > 0 and cub / (mine - floor) >= 0.95
        floored += want
        if want != cell.endswith("~"):
            failures.append("%s %s 2^%s: scorecard %s, floor %.1f us says %s" %
                            (op, typ, l2, cell, floor * 1000, "~" if want else "no ~"))
# 10 in the recorded job: reduce at 2^20-2^25, rle64 at 2^18, scan float
# at 2^16, unique4 and rbk4 at 2^24.
if floored < 8:
    failures.append("only %d misses within the floor; the job has 10" % floored)
for f in failures:
    print(f)
sys.exit(1 if failures else 0)
