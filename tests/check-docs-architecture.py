#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/architecture.md names every C file of src/, and no src/ file that
is gone: a new file gets its line in the map when it lands.

    check-docs-architecture.py SOURCE_ROOT
"""

import os
import re
import sys


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    with open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    files = {n for n in os.listdir(os.path.join(root, "src")) if n.endswith(".c")}
    named = set(re.findall(r"`([a-z0-9_]+\.c)`", text))
    bad = 0
    for name in sorted(files - named):
        print("docs/architecture.md does not say what src/%s owns" % name)
        bad += 1
    for name in sorted(named - files):
        print("docs/architecture.md names src/%s, which does not exist" % name)
        bad += 1
    print("%d files of src/, %d named" % (len(files), len(files & named)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
