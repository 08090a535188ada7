#!/bin/sh
# Installs what libclwarp needs on Debian 12 and configures ./build.
# Run as root from the repository's top folder. Safe to run again.
set -eu

packages="meson ninja-build pkg-config gcc libc6-dev python3 check
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd"

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	apt-get update
	# shellcheck disable=SC2086 # the list is meant to split
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

[ -f build/build.ninja ] || meson setup build
