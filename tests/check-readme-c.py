#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every complete C program in README.md (a ```c block with a main) builds
against the library as a user would, and runs with exit status 0 from the
top of the source tree.

    check-readme-c.py SOURCE_ROOT LIBCLWARP_SO CC [CFLAGS...]
"""

import os
import re
import subprocess
import sys
import tempfile


def programs(readme):
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"^```c\n(.*?)^```", text, re.S | re.M)
    return [b for b in blocks if re.search(r"^int\s+main\s*\(", b, re.M)]


def main(argv):
    root, lib, cc = argv[1], argv[2], argv[3:]
    found = programs(os.path.join(root, "README.md"))
    if not found:
        print("README.md: no complete C program (a ```c block with main)")
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, text in enumerate(found, 1):
            src, exe = os.path.join(tmp, "readme%d.c" % n), os.path.join(tmp, "readme%d" % n)
            with open(src, "w", encoding="utf-8") as f:
                f.write(text)
            cmd = cc + ["-std=c11", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(root, "include"),
                        src, lib, "-lOpenCL", "-Wl,-rpath," + os.path.dirname(lib), "-o", exe]
            build = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   universal_newlines=True)
            if build.returncode != 0:
                print("README.md program %d does not build:\n%s" % (n, build.stdout))
                failed += 1
                continue
            run = subprocess.run([exe], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 universal_newlines=True, timeout=600)
            print("README.md program %d: exit %d\n%s" % (n, run.returncode, run.stdout))
            failed += run.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
