/* Host memory the device copies at full speed: pinned blocks for the
 * public API (clwarp_host_buffer_new) and for the library's own staging
 * (src/group.c). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_HOSTMEM_H
#define CLWARP_HOSTMEM_H

#include <stdbool.h>

#include "clwarp/clwarp.h"

/* One block from clwarp_host_buffer_new, in the engine's list (engine.h). */
struct host_block {
	cl_mem mem;               /* the mapped CL_MEM_ALLOC_HOST_PTR buffer; NULL: malloc'd */
	void *host;
	size_t bytes;
	struct host_block *next;
};

/* Whether the engine's driver gives pinned memory for CL_MEM_ALLOC_HOST_PTR
 * (a GPU not driven by PoCL); elsewhere mapping buys nothing. */
bool host_pins_memory(const clwarp_engine *engine);

/* Map a new CL_MEM_ALLOC_HOST_PTR buffer of @p bytes of the engine's
 * context for reading and writing, with a blocking map on the engine's
 * queue. Returns CL_SUCCESS, or the driver's error with nothing left. */
cl_int host_pin(clwarp_engine *engine, size_t bytes, cl_mem *mem, void **host);

/* Enqueue the unmap of a block from host_pin and release the buffer; the
 * driver frees it once the commands queued before it have run. */
void host_unpin(clwarp_engine *engine, cl_mem mem, void *host);

/* memcpy into host memory that a device reads next (a pinned chunk about
 * to be DMA'd), bypassing the CPU's caches where it can (x86's
 * non-temporal stores). Visible to the device once it returns. */
void host_copy_for_device(void *dst, const void *src, size_t n);

/* Whether @p ptr points into one of the engine's clwarp_host_buffer_new blocks. */
bool host_in_block(clwarp_engine *engine, const void *ptr);

/* Give back every block still out (clwarp_engine_free): waits for the
 * engine's queue first, as copies in flight may use them. */
void host_free_all(clwarp_engine *engine);

#endif
