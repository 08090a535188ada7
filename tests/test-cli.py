#!/usr/bin/env python3
# clwarp-run: tests of the command-line tool as a program (stdlib unittest).
# SPDX-License-Identifier: MIT
"""Run the clwarp-run binary named by $CLWARP_RUN on small kernels.

One test case of every test: the binary, the kernel files and the helpers
are in cli_case.py; the tests, by what they test, in cli_runs.py (runs),
cli_errors.py (errors; the bad input table in cli_bad_input.py),
cli_guard.py (writes past a buffer's end, special files, --sanitize) and
cli_info.py (devices, warp widths, --version and --help).
"""

import sys
import unittest

# The modules below sit beside this file: no __pycache__ in the source tree.
sys.dont_write_bytecode = True

import cli_case  # noqa: E402
from cli_errors import ErrorTests  # noqa: E402
from cli_guard import GuardTests, SanitizeTests  # noqa: E402
from cli_info import InfoTests  # noqa: E402
from cli_runs import RunTests  # noqa: E402


class CliTest(cli_case.CliCase, RunTests, ErrorTests, GuardTests, SanitizeTests, InfoTests):
    pass


if __name__ == "__main__":
    unittest.main(verbosity=2)
