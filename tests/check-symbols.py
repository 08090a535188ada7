#!/usr/bin/env python3
# The shared library must export exactly the symbols of src/clwarp.map, and
# the map must list exactly the functions the public headers declare.
import re
import subprocess
import sys

lib, mapfile, *headers = sys.argv[1:]

exported = set()
for line in subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                           capture_output=True, text=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] == "T":
        exported.add(parts[2].split("@")[0])

listed = set(re.findall(r"^\s*(clwarp_\w+);", open(mapfile).read(), re.M))

declared = set()
for h in headers:
    declared |= set(re.findall(r"CLWARP_EXPORT[^;(]*?\b(clwarp_\w+)\s*\(", open(h).read(), re.S))

problems = []
for name in sorted(exported - listed):
    problems.append("exported but not in the map: " + name)
for name in sorted(listed - exported):
    problems.append("in the map but not exported: " + name)
for name in sorted(declared - listed):
    problems.append("declared in a public header but not in the map: " + name)
for name in sorted(listed - declared):
    problems.append("in the map but declared in no public header: " + name)
names = re.findall(r"^\s*(clwarp_\w+);", open(mapfile).read(), re.M)
if names != sorted(names):
    problems.append("the map is not in alphabetical order")
for p in problems:
    print(p)
print("%d symbols checked, %d problems" % (len(exported), len(problems)))
sys.exit(1 if problems else 0)
