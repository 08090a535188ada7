#!/bin/sh
# Run by `meson install` (src/meson.build) after the files are in place:
# refreshes the dynamic linker's cache, so that programs find the new
# libclwarp.so.0 at once. Debian's ld.so.conf names
# /usr/local/lib/x86_64-linux-gnu and /usr/local/lib, but the loader looks
# there only through that cache. Only as root (a user's own prefix needs
# an rpath or LD_LIBRARY_PATH instead, docs/install.md); Meson leaves it
# out of a DESTDIR (staged or packaged) install.
# SPDX-License-Identifier: MIT
set -eu

[ -z "${MESON_INSTALL_DRY_RUN:-}" ] || exit 0
[ "$(id -u)" -eq 0 ] || exit 0
for ldconfig in ldconfig /usr/sbin/ldconfig /sbin/ldconfig; do
	if command -v "$ldconfig" >/dev/null 2>&1; then
		exec "$ldconfig"
	fi
done
echo "install: ldconfig not found; run it as root so that programs find libclwarp.so" >&2
