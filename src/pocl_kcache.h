/* PoCL's own kernel cache: where it makes the disk cache's binaries redundant. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_POCL_KCACHE_H
#define CLWARP_POCL_KCACHE_H

#include <stdbool.h>

#include "clwarp/clwarp.h"

/*
 * True for a PoCL CPU device whose kernel cache is on (POCL_KERNEL_CACHE
 * unset, or a nonzero number; PoCL's default). There, reading
 * CL_PROGRAM_BINARIES makes PoCL compile every kernel of the program once
 * more, for a dynamic work-group size that launches do not use, while its
 * cache folder already keeps each program's LLVM IR and every compiled
 * kernel for the next process. The engine then stores a program's binary
 * only once a second process compiles the program (src/program.c,
 * docs/cache.md, "PoCL"). Any other value of POCL_KERNEL_CACHE counts as
 * off, so that a doubt costs a store, never a later full compile.
 */
bool pocl_kcache_on(const clwarp_device_info *info);

/* With @p on, pocl_kcache_on() is false for every device: the tests of the
 * disk cache store binaries at the first compile on PoCL with its cache
 * on, where compiles stay cheap. Set before the first engine; not for applications (not exported). */
void pocl_kcache_store_anyway(bool on);

#endif
