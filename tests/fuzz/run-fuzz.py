#!/usr/bin/env python3
# One libFuzzer target for meson test --suite fuzz: regressions, then a bounded run.
# SPDX-License-Identifier: MIT
"""Run one libFuzzer target for `meson test --suite fuzz`.

    run-fuzz.py TARGET NAME SOURCE_DIR WORK_DIR

First every file of SOURCE_DIR/regressions/NAME (inputs that once crashed),
then CLWARP_FUZZ_SECONDS (default 60) of fuzzing that starts from the seeds
in SOURCE_DIR/corpus/NAME, with SOURCE_DIR/NAME.dict if there is one.
The inputs the fuzzer finds, crash artifacts and the full log go to
WORK_DIR (in the build folder), never into the source tree; the corpus
there grows from run to run. Any crash, leak, timeout, out-of-memory or
sanitizer report fails the test.
"""

import os
import re
import subprocess
import sys
import time

# Per input: a hang longer than this is a bug. In all: a parser needs
# nowhere near this much memory.
COMMON_FLAGS = ["-timeout=10", "-rss_limit_mb=2048"]
# Output that means a bug even if the exit status were 0.
BAD_OUTPUT = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer"
                        r"|libFuzzer)|runtime error:|^SUMMARY: ", re.MULTILINE)


def run(cmd, log_path, limit):
    """Run cmd, its output into log_path; returns (status, output)."""
    started = time.monotonic()
    with open(log_path, "w", encoding="utf-8", errors="replace") as log:
        log.write("$ " + " ".join(cmd) + "\n")
        log.flush()
        try:
            status = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, timeout=limit,
                                    check=False).returncode
        except subprocess.TimeoutExpired:
            status = "killed after %d s" % limit
    with open(log_path, encoding="utf-8", errors="replace") as log:
        output = log.read()
    print("%s: status %s after %.1f s (log: %s)" % (os.path.basename(cmd[0]), status,
                                                  time.monotonic() - started, log_path))
    return status, output


def failed(status, output, what):
    """Report a failure of `what` with the end of its output; True if so."""
    bad = BAD_OUTPUT.search(output)
    if status == 0 and not bad:
        return False
    lines = output.splitlines()
    print("FAIL: %s (status %s%s); the last lines of its output:" %
          (what, status, ", a sanitizer or libFuzzer report" if bad else ""))
    print("\n".join(lines[-150:]))
    return True


def summary(output):
    """The figures libFuzzer printed at the end of a run, as one line."""
    stats = dict(re.findall(r"^stat::(\w+):\s*(\d+)", output, re.MULTILINE))
    done = re.findall(r"^#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/(\S+)", output,
                      re.MULTILINE)
    text = "%s runs, %s/s" % (stats.get("number_of_executed_units", "?"),
                              stats.get("average_exec_per_sec", "?"))
    if done:
        _, cov, ft, units, corp_size = done[-1]
        text += ", cov %s, ft %s, corpus %s units (%s)" % (cov, ft, units, corp_size)
    text += ", new units %s, peak RSS %s MB" % (stats.get("new_units_added", "?"),
                                               stats.get("peak_rss_mb", "?"))
    return text


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    target, name, source_dir, work_dir = sys.argv[1:]
    seconds = int(os.environ.get("CLWARP_FUZZ_SECONDS", "60"))
    seeds = os.path.join(source_dir, "corpus", name)
    regressions = os.path.join(source_dir, "regressions", name)
    corpus = os.path.join(work_dir, "corpus")
    artifacts = os.path.join(work_dir, "artifacts")
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    # Stack traces for UBSan too; options already set (meson's, the user's) win.
    os.environ["UBSAN_OPTIONS"] = "print_stacktrace=1:" + os.environ.get("UBSAN_OPTIONS", "")
    # The fuzzer's own temp folders (tests/fuzz/fuzz.h) stay in the build folder.
    os.environ["TMPDIR"] = work_dir
    ok = True

    inputs = []
    if os.path.isdir(regressions):
        inputs = sorted(os.path.join(regressions, f) for f in os.listdir(regressions)
                        if not f.startswith(".") and not f.startswith("README"))
    if inputs:
        status, output = run([target] + COMMON_FLAGS + inputs,
                             os.path.join(work_dir, "regressions.log"), 60 + 15 * len(inputs))
        if failed(status, output, "%d regression input(s) of %s" % (len(inputs), regressions)):
            ok = False
        else:
            print("%d regression input(s): all pass" % len(inputs))

    cmd = [target] + COMMON_FLAGS + [
        "-max_total_time=%d" % seconds,
        "-print_final_stats=1",
        "-artifact_prefix=" + artifacts + "/",
    ]
    dictionary = os.path.join(source_dir, name + ".dict")
    if os.path.isfile(dictionary):
        cmd.append("-dict=" + dictionary)
    # New inputs go to the first folder only: the seeds stay untouched.
    cmd += [corpus, seeds]
    # Loading the corpus comes on top of max_total_time; a run stuck past
    # this has hung outside any one input.
    status, output = run(cmd, os.path.join(work_dir, "fuzz.log"), 2 * seconds + 120)
    if failed(status, output, "fuzzing %s for %d s" % (name, seconds)):
        print("The input that failed is in %s; add it to %s to keep it tested." %
              (artifacts, regressions))
        ok = False
    print("fuzz-%s: %d s: %s" % (name, seconds, summary(output)))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
