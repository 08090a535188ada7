#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every shell command of README.md (the lines of its ```sh blocks) is
either run here as written, or is one this test knows not to run:

- `build/tools/clwarp-run ...` runs from the top of the source tree
  (build/ being this build's folder, on the local backend at 32 lanes); a
  ```text block right after its block is what it must print;
- `cc main.c $(pkg-config --cflags --libs clwarp)` builds README's C
  program (main.c) against this build's uninstalled clwarp.pc, and the
  program runs from the top of the source tree;
- the set-up, demo and test commands must be the very ones CI runs
  (README_*_COMMAND in .ci/lib/steps.sh), and every one of those must be
  in README.md;
- the rest (an install, a reconfigure, a test run, a tool that installs
  something) are left alone, each for the reason in NOT_RUN.

Every ```opencl block of README.md is, as it stands, part of a file of
kernels/examples/, so the kernel shown is the kernel those commands run.

    check-docs-commands.py SOURCE_ROOT BUILD_ROOT CC [CFLAGS...]
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# Commands the test does not run: (pattern, why).
NOT_RUN = [
    (r"^meson install\b", "installs system-wide (CI's consumers step runs it)"),
    (r"^meson configure build\b", "reconfigures the build this test runs in"),
    (r"^meson (test|compile)\b", "a build or a test run of its own"),
    (r"^(sh|bash) tools/", "installs packages or runtimes (CI runs it)"),
    (r"^(sudo )?apt(-get)? ", "installs packages"),
    (r"build/examples/", "needs the examples built (-Dexamples=true); the suite examples-c "
                         "runs each and checks what it prints"),
]

BLOCK = re.compile(r"^```(\w*)\n(.*?)^```\s*$", re.S | re.M)
CI_COMMAND = re.compile(r"^readonly (README_\w+_COMMAND)='(.*)'$", re.M)


def commands(block):
    """The commands of a sh block: its lines, `\\` continuations joined, comments dropped."""
    out, pending = [], ""
    for line in block.splitlines():
        line = pending + line.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if line and not line.startswith("#"):
            out.append(line)
    return out


def readme_parts(root):
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    found = list(BLOCK.finditer(text))
    shells, program = [], None
    for i, m in enumerate(found):
        if m.group(1) == "c" and program is None and re.search(r"^int\s+main\s*\(", m.group(2), re.M):
            program = m.group(2)
        if m.group(1) != "sh":
            continue
        expect = None
        if i + 1 < len(found) and found[i + 1].group(1) == "text" and \
                text[m.end():found[i + 1].start()].strip() == "":
            expect = found[i + 1].group(2)
        for c in commands(m.group(2)):
            shells.append((text.count("\n", 0, m.start()) + 1, c, expect))
    return shells, program


def kernels_shown(root):
    """README's ```opencl blocks that no file of kernels/examples/ holds."""
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    folder = os.path.join(root, "kernels", "examples")
    files = []
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            files.append(f.read())
    return [(text.count("\n", 0, m.start()) + 1, m.group(2)) for m in BLOCK.finditer(text)
            if m.group(1) == "opencl" and not any(m.group(2) in f for f in files)]


def ci_commands(root):
    with open(os.path.join(root, ".ci", "lib", "steps.sh"), encoding="utf-8") as f:
        return dict(CI_COMMAND.findall(f.read()))


def run_clwarp_run(root, build, command, expect):
    env = dict(os.environ, CLWARP_BACKEND="local", CLWARP_WARP_SIZE="32")
    argv = shlex.split(command)
    argv[0] = os.path.join(build, os.path.relpath(argv[0], "build"))
    run = subprocess.run(argv, cwd=root, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)
    if run.returncode != 0:
        return "exit %d:\n%s" % (run.returncode, run.stdout)
    if expect is not None and run.stdout.strip() != expect.strip():
        return "printed:\n%s\nREADME.md says:\n%s" % (run.stdout, expect)
    return None


def run_pkg_config(root, build, cc, command, program):
    if program is None:
        return "no C program (a ```c block with main) in README.md to build as main.c"
    if shutil.which("pkg-config") is None:
        return "no pkg-config"
    with tempfile.TemporaryDirectory() as tmp:
        # The uninstalled library's clwarp.pc, under the name a user has.
        shutil.copy(os.path.join(build, "meson-uninstalled", "clwarp-uninstalled.pc"),
                    os.path.join(tmp, "clwarp.pc"))
        with open(os.path.join(tmp, "main.c"), "w", encoding="utf-8") as f:
            f.write(program)
        env = dict(os.environ, PKG_CONFIG_PATH=tmp)
        line = " ".join(shlex.quote(w) for w in cc) + command[len("cc"):]
        build_run = subprocess.run(["sh", "-c", line], cwd=tmp, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, universal_newlines=True)
        if build_run.returncode != 0:
            return "does not build:\n%s" % build_run.stdout
        env["LD_LIBRARY_PATH"] = os.path.join(build, "src")
        run = subprocess.run([os.path.join(tmp, "a.out")], cwd=root, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, timeout=600)
        if run.returncode != 0:
            return "the program exits %d:\n%s" % (run.returncode, run.stdout)
    return None


def classify(command, ci):
    if command in ci.values():
        return "ci", None
    if command.startswith("build/tools/clwarp-run "):
        return "clwarp-run", None
    if command.startswith("cc ") and "$(pkg-config --cflags --libs clwarp)" in command:
        return "pkg-config", None
    for pattern, why in NOT_RUN:
        if re.search(pattern, command):
            return "not run", why
    return None, None


def main(argv):
    root, build, cc = argv[1], argv[2], argv[3:]
    shells, program = readme_parts(root)
    ci = ci_commands(root)
    failed = 0
    for line, _ in kernels_shown(root):
        print("README.md:%d: an opencl block that no file of kernels/examples/ holds as it "
              "stands" % line)
        failed += 1
    for name, command in sorted(ci.items()):
        if not any(command == c for _, c, _ in shells):
            print("README.md does not give CI's %s as a command: %s" % (name, command))
            failed += 1
    for line, command, expect in shells:
        kind, why = classify(command, ci)
        where = "README.md:%d: %s" % (line, command)
        if kind is None:
            print("%s\n  a command this test neither runs nor knows (tests/check-docs-commands.py, "
                  "NOT_RUN)" % where)
            failed += 1
            continue
        if kind == "ci":
            print("%s\n  CI's own command (.ci/lib/steps.sh)" % where)
            continue
        if kind == "not run":
            print("%s\n  not run: %s" % (where, why))
            continue
        problem = run_clwarp_run(root, build, command, expect) if kind == "clwarp-run" \
            else run_pkg_config(root, build, cc, command, program)
        print("%s\n  %s" % (where, problem or "ran"))
        failed += problem is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
