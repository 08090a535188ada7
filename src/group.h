/* Device groups: what src/group.c (the group and its split), src/group_run.c
 * (programs, kernels, launches, data) and src/group_algo.c (the algorithms)
 * share. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_GROUP_INTERNAL_H
#define CLWARP_GROUP_INTERNAL_H

#include "clwarp/group.h"
#include "device.h"
#include "engine.h"

struct clwarp_group_program {
	clwarp_group *group;
	clwarp_program **programs;        /* one per device, owned by the engines */
	struct clwarp_group_program *next;
};

struct clwarp_group_kernel {
	clwarp_group *group;
	clwarp_kernel **kernels;          /* one per device */
};

struct clwarp_group {
	size_t count;
	clwarp_engine **engines;
	struct device_index_pair *ids;
	double *weights;
	cl_mem *scratch;                  /* per device, 16 bytes, made on first use (group_algo.c) */
	double timeout;                   /* seconds, 0: none (clwarp_group_set_timeout) */
	/* Host memory the sort moves keys through between devices, kept
	 * between calls (group_sort.c): a mapped CL_MEM_ALLOC_HOST_PTR buffer
	 * of engine 0's context where that is pinned memory, else malloc'd. */
	cl_mem staging;
	void *staging_host;
	size_t staging_bytes;
	struct clwarp_group_program *programs;
};

/* Run fn(ctx, i) for every device i, one thread per device (none for a
 * group of one). The first device that failed (by index) gives this
 * thread's error, its message prefixed by group_device_error. */
clwarp_status group_parallel(clwarp_group *group, clwarp_status (*fn)(void *ctx, size_t index),
			     void *ctx);

/* Prefix this thread's error message with device `index`'s name:
 * "device 1 (0:1 NAME): ..."; returns `status`. */
clwarp_status group_device_error(const clwarp_group *group, size_t index, clwarp_status status);

/* Check an offsets array of count + 1 entries: starts at 0, never
 * decreases. `what` names it in the message. */
clwarp_status group_check_offsets(const clwarp_group *group, const char *fn, const size_t *offsets,
				  const char *what);

/* One buffer per device (at least one byte each); on failure none is left
 * and this thread's error names the device (src/group_run.c). */
clwarp_status group_buffers_new(clwarp_group *group, cl_mem_flags flags, const size_t *bytes,
				cl_mem *buffers);

/* Release and clear buffers[0..count), as clwarp_group_release_buffers(). */
void group_release_buffers(const clwarp_group *group, cl_mem *buffers);

/* At least `bytes` of host memory to stage data through between devices,
 * kept by the group until a larger request or clwarp_group_free (pinned
 * where that is faster); NULL when out of memory. */
void *group_staging(clwarp_group *group, size_t bytes);

/* Wait for and release every event in events[0..count) that is not NULL,
 * within the group's time limit. The first that failed or timed out gives
 * the error, naming its device. */
clwarp_status group_wait(const clwarp_group *group, cl_event *events, const char *what);

#endif
