#!/usr/bin/env python3
# No circular calls between src/ files: in the static library, the graph
# "object A uses a symbol that object B defines" must have no cycle. Each
# cycle found is printed with the symbols that close it. With --macros DIR
# (the sources), a macro that B.h defines and A.c names counts as A using
# B too. Usage: check-file-calls.py ARCHIVE [--macros DIR]
import glob
import os
import re
import subprocess
import sys

archive = sys.argv[1]
macro_dir = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--macros" else None
defined, used = {}, {}
member = None
for line in subprocess.run(["nm", archive], check=True, capture_output=True,
                           text=True).stdout.splitlines():
    if line.endswith(".o:"):
        member = line[:-1].removesuffix(".c.o").removesuffix(".o")
        used[member] = set()
        continue
    parts = line.split()
    if len(parts) == 3 and parts[1] in "TDRB":
        defined[parts[2]] = member
    elif len(parts) == 2 and parts[0] == "U":
        used[member].add(parts[1])



def code_words(path):
    """The identifiers of a file, outside comments and string literals."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return text, set(re.findall(r"[A-Za-z_]\w*", text))


if macro_dir:
    # Macros of B.h, where B is an object of the archive (not header guards),
    # as symbols that B "defines" and the .c files naming them "use".
    for header in sorted(glob.glob(os.path.join(macro_dir, "*.h"))):
        owner = os.path.basename(header)[:-2]
        if owner not in used:
            continue
        text, _ = code_words(header)
        for name in re.findall(r"^\s*#\s*define\s+([A-Za-z_]\w*)", text, re.M):
            if not (name.startswith("CLWARP_") and name.endswith("_H")):
                defined.setdefault("macro " + name, owner)
    for source in sorted(glob.glob(os.path.join(macro_dir, "*.c"))):
        member = os.path.basename(source)[:-2]
        if member in used:
            used[member] |= {"macro " + w for w in code_words(source)[1]}

calls = {m: {defined[s] for s in syms if defined.get(s, m) != m} for m, syms in used.items()}

# Tarjan's strongly connected components: any of more than one file is a cycle.
index, low, stack, on_stack, cycles = {}, {}, [], set(), []


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on_stack.add(v)
    for w in calls[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            cycles.append(sorted(component))


for m in sorted(calls):
    if m not in index:
        visit(m)
for component in cycles:
    print("files that call each other: " + ", ".join(component))
    for a in component:
        for b in sorted(calls[a] & set(component)):
            syms = sorted(s for s in used[a] if defined.get(s) == b)
            print(f"  {a} -> {b}: {', '.join(syms[:5])}")
if not calls:
    print("no objects read from " + archive)
    sys.exit(1)
print(f"{len(calls)} files, {len(cycles)} cycles")
sys.exit(1 if cycles else 0)
