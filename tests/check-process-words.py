#!/usr/bin/env python3
# No words a user cannot look up: session, issue, job and stop numbers of
# the project's working process, in any tracked file outside EXCLUDED. A comment says the fact instead, and where it was
# measured (a docs page, a bench/results folder). Each hit is printed as
# file:line. Usage: check-process-words.py SOURCE_ROOT
# Where SOURCE_ROOT is no git checkout (a dist tarball, a copy of the tree)
# every file under it is read, build folders (a meson-info/ inside) left out.
# SPDX-License-Identifier: MIT
import os
import re
import shutil
import subprocess
import sys

# Folders (ending in '/') and files left out for good.
EXCLUDED = []

# Files with hits that their owners are rewriting; each goes from this
# list once it is clean.
PENDING = []

WORDS = re.compile(
    r"\b[Ss]essions? [0-9]+"                 # a numbered work session
    r"|\b[Ii]ssues? #?[0-9]+"                # an issue number
    r"|\b[Jj]ob [0-9]+"                      # a numbered job
    r"|\b[Ss]top [0-9]+"                     # a numbered stop
    r"|(?<![\w&#/])#[0-9]{2,5}\b(?![\w-])")  # a bare issue reference
# A bare '#' and 3 or 6 digits after a quote, '=' or ':' is a colour.
COLOUR = re.compile(r"""["'=:]\s*#(?:[0-9]{3}|[0-9]{6})$""")


def left_out(path):
    return any(path.startswith(e) if e.endswith("/") else path == e
               for e in EXCLUDED + PENDING)


def tree_files(root):
    out = []
    for top, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git" and
                   not os.path.exists(os.path.join(top, d, "meson-info"))]
        out += [os.path.relpath(os.path.join(top, n), root) for n in names]
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CLWARP_SOURCE_ROOT", ".")
    if os.path.exists(os.path.join(root, ".git")) and shutil.which("git"):
        files = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                               capture_output=True).stdout.decode().split("\0")
    else:
        files = tree_files(root)
    hits = 0
    for path in sorted(f for f in files if f and not left_out(f)):
        try:
            with open(os.path.join(root, path), "rb") as f:
                data = f.read()
        except (FileNotFoundError, IsADirectoryError):
            continue  # deleted in the working tree, or a submodule
        if b"\0" in data:
            continue  # binary
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for m in WORDS.finditer(line):
                if m.group().startswith("#") and COLOUR.search(line[:m.end()]):
                    continue
                print("%s:%d: %r: %s" % (path, number, m.group(), line.strip()))
                hits += 1
    if hits:
        print("%d words a user cannot look up; say the fact and where it was "
              "measured instead (a docs page, a bench/results folder)" % hits)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
