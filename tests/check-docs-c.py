#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every ```c block of README.md, HACKING.md and docs/**/*.md compiles
against the library as a user would build it (HACKING.md, "Code in the
docs"):

- a block with `int main(` is a complete program: built, linked and run
  from the top of the source tree; it has to exit with status 0;
- a block right after a line `<!-- c-fragment: DECLARATIONS -->` is
  statements: compiled as the body of a void function that declares
  DECLARATIONS first;
- any other block is file-scope code (declarations, functions): compiled
  on its own, not linked.

OpenCL C goes in ```opencl blocks, which this test leaves alone.

    check-docs-c.py SOURCE_ROOT LIBCLWARP_SO CC [CFLAGS...]
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

# Pages whose owners have not yet marked their fragments (a c-fragment
# line); each goes from this list once its blocks compile.
PENDING = ["docs/copies.md"]

PRELUDE = """#include <stdio.h>
#include <stdlib.h>
#include <clwarp/clwarp.h>
#include <clwarp/algorithms.h>
#include <clwarp/group.h>
"""

BLOCK = re.compile(r"^(?:<!--\s*c-fragment:\s*(.*?)\s*-->\n)?```c\n(.*?)^```\s*$", re.S | re.M)


def doc_files(root):
    found = [f for f in ("README.md", "HACKING.md") if os.path.exists(os.path.join(root, f))]
    found += sorted(os.path.relpath(p, root) for p in
                    glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    return [f for f in found if f not in PENDING]


def blocks(root, doc):
    """(line, kind, text) of each ```c block: kind is program, fragment or file."""
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        text = f.read()
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start(2))
        body = m.group(2)
        if m.group(1) is not None:
            yield line, "fragment", PRELUDE + "\nvoid docs_fragment(void);\nvoid docs_fragment(void)\n{\n" \
                + m.group(1) + "\n#line %d \"%s\"\n" % (line + 1, doc) + body + "}\n"
        elif re.search(r"^int\s+main\s*\(", body, re.M):
            yield line, "program", "#line %d \"%s\"\n" % (line + 1, doc) + body
        else:
            yield line, "file", PRELUDE + "#line %d \"%s\"\n" % (line + 1, doc) + body


def check(root, lib, cc, tmp, n, doc, line, kind, text):
    src, exe = os.path.join(tmp, "block%d.c" % n), os.path.join(tmp, "block%d" % n)
    with open(src, "w", encoding="utf-8") as f:
        f.write(text)
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(root, "include")]
    if kind == "program":
        cmd = cc + flags + [src, lib, "-lOpenCL", "-Wl,-rpath," + os.path.dirname(lib), "-o", exe]
    else:
        cmd = cc + flags + ["-Wno-unused", "-Wno-unused-parameter", "-Wno-uninitialized",
                          "-Wno-maybe-uninitialized", "-c", src, "-o", exe + ".o"]
    build = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
    where = "%s:%d (%s)" % (doc, line, kind)
    if build.returncode != 0:
        print("%s does not compile:\n%s" % (where, build.stdout))
        return False
    if kind != "program":
        print("%s: compiles" % where)
        return True
    run = subprocess.run([exe], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, timeout=600)
    print("%s: exit %d\n%s" % (where, run.returncode, run.stdout))
    return run.returncode == 0


def main(argv):
    root, lib, cc = argv[1], argv[2], argv[3:]
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for doc in doc_files(root):
            for line, kind, text in blocks(root, doc):
                total += 1
                failed += not check(root, lib, cc, tmp, total, doc, line, kind, text)
    print("%d C blocks, %d failed" % (total, failed))
    if total == 0:
        print("no ```c block found: README.md has a C program")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
