/* clwarp-run: guard zones. Every buffer clwarp-run makes is longer than
 * its SPEC asks by a guard zone after its end, filled with a known
 * pattern, on the device and in the host copy; after the run a changed
 * byte in the zone is a write past the end, reported with the argument
 * it belongs to. The zone also keeps such a write off other memory
 * (on a CPU device, the host heap). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_GUARD_H
#define CLWARP_RUN_GUARD_H

#include "argspec.h"

#include <clwarp/clwarp.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The smallest and largest guard zone, in bytes. */
#define GUARD_MIN_BYTES 4096u
#define GUARD_MAX_BYTES (16u << 20)

/* The guard zone of a buffer @p a under @p work_items work-items: one
 * element per work-item, at least GUARD_MIN_BYTES and at most
 * GUARD_MAX_BYTES, and no more than the device's largest buffer
 * (@p max_alloc) leaves after the buffer's own bytes. */
size_t guard_size(const struct argspec *a, size_t work_items, uint64_t max_alloc);

/* The pattern into the @p guard bytes at @p zone; how far past the zone's
 * start a byte differs from it (the last changed byte's offset plus 1),
 * or 0 when none does. */
void guard_fill(unsigned char *zone, size_t guard);
size_t guard_reach(const unsigned char *zone, size_t guard);

/* Grows the host copy *@p host (a->bytes, filled) by a guard zone of
 * @p guard bytes and makes the device buffer from it. 0, or the exit
 * status of an error it has reported (naming argument @p arg). */
int guard_buffer_new(clwarp_engine *engine, unsigned arg, const struct argspec *a, size_t guard,
		     void **host, cl_mem *mem);

/* After the run: reads an out: buffer back whole, any other buffer's
 * guard zone only, into @p host, and checks the zone. 0, or the exit
 * status of an error or overflow it has reported: EXIT_RUNTIME when the
 * read fails, EXIT_OVERFLOW when the kernel wrote into the zone. */
int guard_read_back(clwarp_engine *engine, unsigned arg, const struct argspec *a, size_t guard,
		    void *host, cl_mem mem);

#endif
