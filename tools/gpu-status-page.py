#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The text of docs/gpu-status.md, from one GPU check's meson JSON logs.

    gpu-status-page.py SECONDS COMMIT "GPU, DRIVER" "PART..." BUILD...

tools/gpu-check.sh calls it at its end; each PART's log is
BUILD/meson-logs/PART.json in one of the BUILD folders.
"""
import datetime
import json
import os
import sys


def main():
    seconds, commit, gpu, parts, builds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(), sys.argv[5:]
    print("# The last GPU check\n")
    print("`bash tools/gpu-check.sh` on the GPU machine (README.md, \"Quick start\"); "
          "this page is its output, replaced at each check.\n")
    print("- date: %s" % datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    print("- commit: %s" % commit)
    print("- GPU, driver: %s" % (gpu or "unknown"))
    print("- wall time: %s s\n" % seconds)
    total = {"passed": 0, "failed": 0, "skipped": 0}
    for part in parts:
        logs = [os.path.join(b, "meson-logs", part + ".json") for b in builds]
        logs = [log for log in logs if os.path.exists(log)]
        print("## %s\n" % part)
        if not logs:
            print("no result\n")
            total["failed"] += 1
            continue
        print("| test | result | seconds |\n| --- | --- | --- |")
        for line in open(logs[0]).read().splitlines():
            test = json.loads(line)
            result = test.get("result")
            total["passed" if result == "OK" else "skipped" if result == "SKIP" else "failed"] += 1
            print("| %s | %s | %.1f |" % (test.get("name"), result, test.get("duration", 0)))
        print()
    print("%(passed)d passed, %(failed)d failed, %(skipped)d skipped" % total)


if __name__ == "__main__":
    main()
