#!/bin/sh
# Installs what libclwarp needs on Debian 12 and configures ./build.
# Run as root from the repository's top folder. Safe to run again.
set -eu

# dpkg-dev: Meson asks its dpkg-architecture for Debian's library folder
# (lib/x86_64-linux-gnu); without it, it picks lib64, where neither the
# loader nor pkg-config looks, and `meson install` gives a library nothing finds.
packages="meson ninja-build pkg-config gcc libc6-dev python3 check dpkg-dev
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

if [ ! -f build/build.ninja ]; then
	meson setup build
elif [ "$(meson introspect build --buildoptions | python3 -c \
	'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"))')" = lib64 ]; then
	# Configured before dpkg-dev was there: Debian's folder instead.
	meson configure build -Dlibdir="lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
fi
