#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run Doxygen on the public headers, then fail on any undocumented public function.

    check-undocumented.py DOXYGEN DOXYFILE WARNINGS_LOG

Doxygen writes its warnings to WARNINGS_LOG (the Doxyfile's WARN_LOGFILE).
A public function with no documentation comment (Doxygen: "Member
clwarp_x(...) (function) of file ... is not documented.") fails the
check; the other warnings (an undocumented enum value or struct member)
are printed, not counted.
"""
import os
import re
import subprocess
import sys

doxygen, doxyfile, log = sys.argv[1:4]
os.makedirs(os.path.dirname(log), exist_ok=True)
if os.path.exists(log):
    os.remove(log)
rc = subprocess.run([doxygen, doxyfile]).returncode
if rc != 0:
    print("doxygen failed (exit %d)" % rc)
    sys.exit(1)
warnings = open(log).read().splitlines() if os.path.exists(log) else []
undocumented = [w for w in warnings if re.search(r"Member clwarp_\w+\s*\(.*\(function\).*is not documented", w)]
for w in warnings:
    print(w)
print("API reference: %s; %d warnings, %d undocumented public functions"
      % (os.path.join(os.path.dirname(log), "html", "index.html"), len(warnings), len(undocumented)))
sys.exit(1 if undocumented else 0)
