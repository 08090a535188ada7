/* A memcpy whose stores bypass the CPU caches, for the staged copies'
 * large pieces (src/stream_copy.c). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_STREAM_COPY_H
#define CLWARP_STREAM_COPY_H

#include <stddef.h>

/* Copy @p n bytes from @p src to @p dst (not overlapping) with
 * non-temporal stores where the CPU has them (x86-64), else memcpy. */
void stream_copy(void *dst, const void *src, size_t n);

#endif
