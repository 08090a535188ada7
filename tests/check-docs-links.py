#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every relative link in README.md, HACKING.md, NEWS.md and docs/**/*.md
resolves: the file or folder exists, and a #anchor names a heading of the
Markdown file it points at (GitHub's anchors: the heading in lower case,
punctuation dropped, blanks as hyphens, -1, -2, ... on repeats).
Links inside code (fenced blocks, indented blocks, `spans`) are not links;
a link whose text runs over two lines counts (its "](target)" is matched).

It also reads every tracked text and code file (MENTION_EXTENSIONS; every
file under SOURCE_ROOT where that is no git checkout) for mentions of a
path under docs/ or contrib/, in prose or comments ("see
docs/design/host.md"), and fails on one that does not exist. A mention
that goes on with a pattern ('docs/**/*.md', 'docs/<bug>/') is not a path.
Each broken link or mention is printed as file:line.

    check-docs-links.py SOURCE_ROOT
"""

import glob
import os
import re
import shutil
import subprocess
import sys

TOP_FILES = ["README.md", "HACKING.md", "NEWS.md"]

# The end of an inline link, "](target)" or "](target "title")": its text
# may start on the line before.
INLINE = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML = re.compile(r"<(?:a|img)\s[^>]*?(?:href|src)=\"([^\"]+)\"", re.I)
FENCE = re.compile(r"^\s{0,3}(```+|~~~+)(.*)$")


def fence(line):
    """The fence a line opens or closes, or None (CommonMark: the text
    after a backtick fence holds no backtick, else it is a code span)."""
    m = FENCE.match(line)
    if not m or (m.group(1)[0] == "`" and "`" in m.group(2)):
        return None
    return m.group(1)


def doc_files(root):
    found = [f for f in TOP_FILES if os.path.exists(os.path.join(root, f))]
    found += sorted(os.path.relpath(p, root) for p in
                    glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    return found


def prose_lines(text):
    """(line number, line) of the lines outside fenced and indented code,
    with inline code spans blanked."""
    open_fence = None
    previous_blank = True
    in_indented = False
    for number, line in enumerate(text.splitlines(), 1):
        m = fence(line)
        if open_fence:
            if m and m[0] == open_fence[0] and len(m) >= len(open_fence):
                open_fence = None
            previous_blank = False
            continue
        if m:
            open_fence = m
            continue
        if line.strip() == "":
            previous_blank = True
            continue
        if (line.startswith("    ") or line.startswith("\t")) and (previous_blank or in_indented):
            in_indented = True
            continue
        in_indented = False
        previous_blank = False
        yield number, re.sub(r"(`+)(.+?)\1", lambda s: " " * len(s.group()), line)


def slug(heading):
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text only
    text = re.sub(r"<[^>]+>", "", text).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache):
    if path not in cache:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        seen, names = {}, set()
        open_fence = None
        for line in text.splitlines():
            m = fence(line)
            if open_fence:
                if m and m[0] == open_fence[0] and len(m) >= len(open_fence):
                    open_fence = None
                continue
            if m:
                open_fence = m
                continue
            h = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not h:
                continue
            base = slug(h.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            names.add(base if n == 0 else "%s-%d" % (base, n))
        names.update(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", text))
        cache[path] = names
    return cache[path]


def check_link(root, doc, target, cache):
    """None when target resolves, else why not."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
        return None  # http:, https:, mailto: ...: not ours to check
    path, _, anchor = target.partition("#")
    if path.startswith("/"):
        return "an absolute path (a link from the repository's top needs a relative one)"
    full = os.path.normpath(os.path.join(root, os.path.dirname(doc), path)) if path \
        else os.path.join(root, doc)
    if os.path.relpath(full, root).split(os.sep)[0] == "..":
        return "outside the repository"
    if not os.path.exists(full):
        return "no such file or folder"
    if anchor:
        if os.path.isdir(full) or not full.endswith(".md"):
            return "an anchor into something that is not a Markdown file"
        if anchor not in anchors(full, cache):
            return "no heading with the anchor #%s" % anchor
    return None


MENTION_EXTENSIONS = (".c", ".h", ".cl", ".py", ".sh", ".build", ".md", ".cu", ".cuh")
# docs/... or contrib/... not inside another path or a URL ("build/docs/",
# "../docs/", "$OUT/docs/", "https://host/docs/").
MENTION = re.compile(r"(?<![\w./<>$~-])((?:docs|contrib)/[\w./-]*)")
PATTERN_CHARS = "*<{[$?"


def tracked_files(root):
    if os.path.exists(os.path.join(root, ".git")) and shutil.which("git"):
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout.decode()
        return [f for f in out.split("\0") if f]
    found = []
    for top, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and
                   not os.path.exists(os.path.join(top, d, "meson-info"))]
        found += [os.path.relpath(os.path.join(top, n), root) for n in names]
    return found


def check_mentions(root):
    """Mentions of docs/... and contrib/... paths that do not exist: the
    number checked and the number missing; each missing one printed."""
    count, missing = 0, 0
    for path in sorted(tracked_files(root)):
        if not path.endswith(MENTION_EXTENSIONS):
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except (FileNotFoundError, IsADirectoryError):
            continue  # deleted in the working tree, or a submodule
        if "docs/" not in text and "contrib/" not in text:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for m in MENTION.finditer(line):
                if m.end() < len(line) and line[m.end()] in PATTERN_CHARS:
                    continue  # a pattern, not a path
                mention = m.group(1).rstrip(".")
                count += 1
                if not os.path.exists(os.path.join(root, mention)):
                    print("%s:%d: %s: no such file or folder" % (path, number, mention))
                    missing += 1
    return count, missing


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    cache, broken, count = {}, 0, 0
    for doc in doc_files(root):
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            text = f.read()
        for number, line in prose_lines(text):
            targets = [m.group(1) for m in INLINE.finditer(line)]
            targets += [m.group(1) for m in HTML.finditer(line)]
            m = REFDEF.match(line)
            if m:
                targets.append(m.group(1))
            for target in targets:
                count += 1
                why = check_link(root, doc, target, cache)
                if why:
                    print("%s:%d: %s: %s" % (doc, number, target, why))
                    broken += 1
    print("%d links checked, %d broken" % (count, broken))
    mentions, missing = check_mentions(root)
    print("%d mentions of docs/ and contrib/ paths checked, %d missing" % (mentions, missing))
    return 1 if broken or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
