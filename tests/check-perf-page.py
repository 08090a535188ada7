#!/usr/bin/env python3
# docs/performance.md, its plots and README.md's summary table are
# bench/perf-page.py's output: run
# the script into a temporary folder and fail on any difference, so that
# nobody edits the page by hand and a new recorded job regenerates it.
# Usage: check-perf-page.py SOURCE_ROOT
# SPDX-License-Identifier: MIT
import difflib
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
docs = os.path.join(root, "docs")
with tempfile.TemporaryDirectory() as out:
    readme = os.path.join(out, "README.md")
    shutil.copyfile(os.path.join(root, "README.md"), readme)
    subprocess.run([sys.executable, os.path.join(root, "bench", "perf-page.py"), "--out", out,
                    "--results", os.path.join(root, "bench", "results"), "--readme", readme],
                   check=True)
    wrong = []
    if not filecmp.cmp(readme, os.path.join(root, "README.md"), shallow=False):
        wrong.append("README.md (its summary)")
    made = ["performance.md"] + ["performance/" + f for f in
                                 sorted(os.listdir(os.path.join(out, "performance")))]
    for name in made:
        want, have = os.path.join(out, name), os.path.join(docs, name)
        if not os.path.exists(have) or not filecmp.cmp(want, have, shallow=False):
            wrong.append(name)
            if name.endswith(".md") and os.path.exists(have):
                sys.stdout.writelines(list(difflib.unified_diff(
                    open(have).readlines(), open(want).readlines(), "docs/" + name,
                    "bench/perf-page.py"))[:60])
    if os.path.isdir(os.path.join(docs, "performance")):
        stale = set(os.listdir(os.path.join(docs, "performance"))) - \
            set(os.listdir(os.path.join(out, "performance")))
        wrong += ["performance/%s (not made by the script)" % f for f in sorted(stale)]
if wrong:
    print("docs/ differs from bench/perf-page.py's output: %s\n"
          "run `python3 bench/perf-page.py` and commit the result" % ", ".join(wrong))
    sys.exit(1)
print("docs/performance.md and %d plots match bench/perf-page.py" % (len(made) - 1))
