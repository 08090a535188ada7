/* Buffers for the library's own callers (src/probe.c): the public entries
 * without their error reset. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_BUFFER_H
#define CLWARP_BUFFER_H

#include "clwarp/clwarp.h"

clwarp_status buffer_new(clwarp_engine *engine, cl_mem_flags flags, size_t bytes,
			 const void *host_data, cl_mem *buffer);
clwarp_status buffer_read(clwarp_engine *engine, cl_mem buffer, size_t offset, size_t bytes,
			  void *dst);

#endif
