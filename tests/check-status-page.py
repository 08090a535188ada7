#!/usr/bin/env python3
# docs/status.md is tools/status-page.py's output (from .ci/run's steps,
# tools/gpu-check.sh's parts and docs/status/gpu-check.json, which the GPU
# check writes): make it into a temporary file and fail on any difference.
# Usage: check-status-page.py SOURCE_ROOT
# SPDX-License-Identifier: MIT
import os
import subprocess
import sys
import tempfile

root = sys.argv[1]
with tempfile.TemporaryDirectory() as out:
    page = os.path.join(out, "status.md")
    subprocess.run([sys.executable, os.path.join(root, "tools", "status-page.py"), "--out", page],
                   check=True)
    if open(page).read() != open(os.path.join(root, "docs", "status.md")).read():
        print("docs/status.md differs from tools/status-page.py's output: "
              "run `python3 tools/status-page.py` and commit the result")
        sys.exit(1)
print("docs/status.md matches tools/status-page.py")
