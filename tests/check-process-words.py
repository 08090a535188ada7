#!/usr/bin/env python3
# No words a user cannot look up: session, issue, job and stop numbers of
# the project's working process, in any tracked file outside EXCLUDED. A comment says the fact instead, and where it was
# measured (a docs page, a bench/results folder). Nor, outside the recorded
# data in bench/results/, a path into a developer's private device folder
# (each developer keeps that folder out of git locally); nor, in code and
# scripts (CODE_DIRS, and CODE_FILES anywhere), the date a thing was done or
# measured: a comment keeps the fact and drops the date. The docs, NEWS.md
# and bench/results/ keep their dates (release dates, recorded jobs). Each
# hit is printed as file:line. Usage: check-process-words.py SOURCE_ROOT
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

# The private device folder, as a path. Built from pieces so that this
# file, which the check reads too, does not name it.
DEVICE_DIR = re.compile(r"(?<![\w.-])" + re.escape("." + "device") + "/")
# Recorded data, which may name anything it recorded.
DATA = ["bench/results/"]

# A calendar date, YYYY-MM-DD, in code and scripts: the folders below and
# every meson.build and meson_options.txt.
DATE = re.compile(r"(?<![0-9])(?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])(?![0-9])")
CODE_DIRS = ["src/", "include/", "kernels/", "tools/", "tests/", ".ci/", "bench/"]
CODE_FILES = ["meson.build", "meson_options.txt"]


def left_out(path):
    return any(path.startswith(e) if e.endswith("/") else path == e
               for e in EXCLUDED + PENDING)


def under(path, prefixes):
    return any(path.startswith(p) for p in prefixes)


def is_code(path):
    if under(path, DATA):
        return False
    return under(path, CODE_DIRS) or os.path.basename(path) in CODE_FILES


def line_hits(path, line):
    """Each (what, text) in one line that the check refuses."""
    out = []
    for m in WORDS.finditer(line):
        if m.group().startswith("#") and COLOUR.search(line[:m.end()]):
            continue
        out.append(("word", m.group()))
    if not under(path, DATA):
        out += [("device folder", m.group()) for m in DEVICE_DIR.finditer(line)]
    if is_code(path):
        out += [("date", m.group()) for m in DATE.finditer(line)]
    return out


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
    kinds = set()
    for path in sorted(f for f in files if f and not left_out(f)):
        try:
            with open(os.path.join(root, path), "rb") as f:
                data = f.read()
        except (FileNotFoundError, IsADirectoryError):
            continue  # deleted in the working tree, or a submodule
        if b"\0" in data:
            continue  # binary
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for kind, text in line_hits(path, line):
                print("%s:%d: %r: %s" % (path, number, text, line.strip()))
                kinds.add(kind)
                hits += 1
    if hits:
        print("%d words a user cannot look up; say the fact and where it was "
              "measured instead (a docs page, a bench/results folder)" % hits)
        if "device folder" in kinds:
            print("a private device folder: let the script take the file from "
                  "a variable (bench/run-gpu.sh's CLWARP_OPENCL_ENV)")
        if "date" in kinds:
            print("a date of work in code or a script: keep the fact, drop the date")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
