#!/usr/bin/env bash
# The whole GPU check, as session 33 ran it twice (at 6e0b731, then at
# 22738e3), from the repository root on the GPU machine with .device/
# carried (README.md, "Quick start"; .device/check.sh wraps
# tools/gpu-check.sh and copies its page and logs under $OUT).
bash .device/check.sh; rc=$?; cd "$OUT" && tar czf check.tgz gpu-status.md logs; rm -rf logs; exit $rc
