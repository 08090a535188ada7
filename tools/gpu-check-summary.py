#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The recorded summary of a GPU check, from its meson JSON logs.

    gpu-check-summary.py SUMMARY SECONDS COMMIT "GPU, DRIVER" "PART..." BUILD...

tools/gpu-check.sh calls it at its end. Each PART's log is
BUILD/meson-logs/PART.json in one of the BUILD folders. SUMMARY
(docs/status/gpu-check.json) keeps one entry per part, with the commit,
GPU and date of the check that ran it: the parts run here replace
theirs, the others stay, so a check run in two calls (CLWARP_GPU_CHECK_PARTS)
records both. tools/status-page.py makes docs/status.md from it.
"""
import datetime
import json
import os
import sys


def main():
    path, seconds, commit, gpu, parts, builds = (sys.argv[1], int(sys.argv[2]), sys.argv[3],
                                                 sys.argv[4], sys.argv[5].split(), sys.argv[6:])
    summary = {"parts": {}}
    if os.path.exists(path):
        with open(path) as f:
            summary = json.load(f)
    name, _, driver = gpu.partition(",")
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    for part in parts:
        logs = [os.path.join(b, "meson-logs", part + ".json") for b in builds]
        logs = [log for log in logs if os.path.exists(log)]
        tests = []
        if logs:
            for line in open(logs[0]).read().splitlines():
                t = json.loads(line)
                tests.append([t.get("name"), t.get("result"), round(t.get("duration", 0), 1)])
        summary["parts"][part] = {
            "date": date, "commit": commit, "gpu": name.strip() or "unknown",
            "driver": driver.strip(), "wall_s": seconds, "tests": tests,
        }
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    failed = [p for p in parts if not summary["parts"][p]["tests"] or
              any(t[1] != "OK" for t in summary["parts"][p]["tests"])]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
