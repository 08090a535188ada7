#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The library's exported symbols and its recorded ABI (test 'symbols').

    check-symbols.py [--abi FILE [--write-abi]] LIB MAPFILE HEADER...

- The shared library must export exactly the symbols of src/clwarp.map, and
  the map must list exactly the functions the public headers declare (in
  alphabetical order).
- With --abi FILE (src/clwarp.abi): every public declaration of the headers,
  normalized (comments and layout dropped), must equal the record: the
  function prototypes, the structs and enums with their members in order,
  the typedefs and the CLWARP_* macros. A changed or removed line is an ABI
  or API break; an added line is an addition. Either fails until the record
  is updated on purpose with --write-abi (docs/releasing.md says when a
  change is allowed and what it does to the version and soname).
"""
import argparse
import difflib
import re
import subprocess
import sys


def normalize(text):
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s*([(),;{}*\[\]])\s*", r"\1", text)
    return text


def declarations(path, src=None):
    """One normalized line per public declaration of one header, in order."""
    if src is None:
        src = open(path).read()
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    src = re.sub(r"//[^\n]*", " ", src)
    src = re.sub(r"\\\n", " ", src)
    name = path.replace("\\", "/").split("/")[-1]
    items = []
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(CLWARP_\w+(?:\([^)]*\))?)[ \t]*([^\n]*)", src, re.M):
        macro, value = m.group(1), m.group(2).strip()
        if macro != "CLWARP_EXPORT" and not re.fullmatch(r"CLWARP_\w+_H", macro):
            items.append((m.start(), ("#define %s %s" % (normalize(macro), normalize(value))).rstrip()))
    # The declarations, with every preprocessor line blanked (offsets kept).
    code = re.sub(r"^[ \t]*#[^\n]*", lambda m: " " * len(m.group(0)), src, flags=re.M)
    for m in re.finditer(r"\bCLWARP_EXPORT\b([^;]*);", code):
        items.append((m.start(), "function " + normalize(m.group(1))))
    for m in re.finditer(r"\b(?:typedef\s+)?(?:struct|enum)\s+\w+\s*\{[^}]*\}\s*\w*\s*;"
                         r"|\btypedef\b[^;{}]*;", code):
        items.append((m.start(), normalize(m.group(0))))
    items = [(pos, "%s: %s" % (name, line)) for pos, line in items]
    return [line for _, line in sorted(items)]


def abi_differences(recorded, current, abi_file):
    problems = []
    for line in difflib.unified_diff(recorded, current, abi_file, "headers", lineterm="", n=0):
        if line.startswith("-") and not line.startswith("---"):
            problems.append("ABI record: changed or removed (an ABI break): " + line[1:])
        elif line.startswith("+") and not line.startswith("+++"):
            problems.append("ABI record: new or changed in the headers: " + line[1:])
    return problems


def self_test(headers):
    """The comparison must notice a changed struct member, prototype and enum."""
    texts = {h: open(h).read() for h in headers}
    before = [l for h in headers for l in declarations(h, texts[h])]
    edits = [("int has_fp64;", "long has_fp64;"),
             ("clwarp_kernel_launch(clwarp_kernel *kernel, unsigned dims",
              "clwarp_kernel_launch(clwarp_kernel *kernel, size_t dims"),
             ("CLWARP_ERROR_IO,", "CLWARP_ERROR_IO, CLWARP_ERROR_NEW,")]
    failures = []
    for old, new in edits:
        h = next((h for h in headers if old in texts[h]), None)
        if h is None:
            failures.append("self-test: '%s' is in no header; update the self-test" % old)
            continue
        after = [l for k in headers
                 for l in declarations(k, texts[k].replace(old, new, 1) if k == h else texts[k])]
        if not abi_differences(before, after, "record"):
            failures.append("self-test: changing '%s' to '%s' went unnoticed" % (old, new))
    return failures


def check_abi(abi_file, headers, write):
    current = []
    for h in headers:
        current += declarations(h)
    problems = self_test(headers)
    if write:
        with open(abi_file, "w") as f:
            f.write("# The public ABI and API of libclwarp, one normalized declaration a line\n"
                    "# (tests/check-symbols.py --write-abi writes it; docs/releasing.md says when).\n")
            f.write("\n".join(current) + "\n")
        print("wrote %d declarations to %s" % (len(current), abi_file))
        return problems
    recorded = [l for l in open(abi_file).read().splitlines() if l and not l.startswith("#")]
    if recorded == current:
        print("%d public declarations equal the record %s" % (len(current), abi_file))
        return problems
    problems += abi_differences(recorded, current, abi_file)
    problems.append("the public headers differ from %s: if that is deliberate, read "
                    "docs/releasing.md, then update the record with --write-abi" % abi_file)
    return problems


def check_symbols(lib, mapfile, headers):
    exported = set()
    for line in subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                               capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "T":
            exported.add(parts[2].split("@")[0])

    names = re.findall(r"^\s*(clwarp_\w+);", open(mapfile).read(), re.M)
    listed = set(names)

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
    if names != sorted(names):
        problems.append("the map is not in alphabetical order")
    print("%d symbols checked" % len(exported))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--abi", help="the recorded ABI (src/clwarp.abi)")
    parser.add_argument("--write-abi", action="store_true", help="rewrite the record from the headers")
    parser.add_argument("lib")
    parser.add_argument("mapfile")
    parser.add_argument("headers", nargs="+")
    args = parser.parse_args()
    problems = check_symbols(args.lib, args.mapfile, args.headers)
    if args.abi:
        problems += check_abi(args.abi, args.headers, args.write_abi)
    for p in problems:
        print(p)
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
