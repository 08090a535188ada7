#!/usr/bin/env python3
# No function longer than LIMIT lines in the given C files (a folder
# stands for its *.c files): a function is counted from the line with its
# name to the line with its closing brace. Prints each longer one as
# file:line: name (lines), longest first, and exits 1 if there is one.
# Usage: check-function-length.py [--limit N] FILE|FOLDER...
import glob
import os
import re
import sys

LIMIT = 80
IDENT = re.compile(r"[A-Za-z_]\w*")


def strip(text):
    """The text with comments, string and char literals and preprocessor
    lines blanked out (newlines kept, so line numbers stay)."""
    out, i, n = [], 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # a directive, with its continuation lines
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                if text.startswith("/*", i):
                    end = text.find("*/", i + 2)
                    end = n if end < 0 else end + 2
                    out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
                    i = end
                    continue
                out.append(" ")
                i += 1
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
            continue
        out.append(c)
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        i += 1
    return "".join(out)


def functions(path):
    """(name, first line, last line) of each function defined in path."""
    with open(path, encoding="utf-8") as f:
        text = strip(f.read())
    found, depth, header_start, start = [], 0, 0, None
    i = 0
    while i < len(text):
        c = text[i]
        if c == "{":
            if depth == 0:
                header = text[header_start:i]
                paren = header.find("(")
                # a function: `name (params)` before the brace, not an
                # initializer (`= {`) or a struct, union or enum body
                if paren >= 0 and "=" not in header[:paren] and header.rstrip().endswith(")"):
                    names = list(IDENT.finditer(header[:paren]))
                    if names:
                        name = names[-1]
                        line = text.count("\n", 0, header_start + name.start()) + 1
                        start = (name.group(), line)
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if start:
                    found.append((start[0], start[1], text.count("\n", 0, i) + 1))
                start = None
                header_start = i + 1
        elif c == ";" and depth == 0:
            header_start = i + 1
        i += 1
    return found


def main(argv):
    limit = LIMIT
    if argv[:1] == ["--limit"]:
        limit, argv = int(argv[1]), argv[2:]
    paths = []
    for arg in argv:
        paths += sorted(glob.glob(os.path.join(arg, "*.c"))) if os.path.isdir(arg) else [arg]
    if not paths:
        print("no C files given")
        return 1
    long = []
    for path in paths:
        for name, first, last in functions(path):
            if last - first + 1 > limit:
                long.append((last - first + 1, path, first, name))
    for lines, path, first, name in sorted(long, key=lambda x: (-x[0], x[1], x[2])):
        print(f"{path}:{first}: {name} ({lines} lines)")
    print(f"{len(paths)} files, {len(long)} functions over {limit} lines")
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
