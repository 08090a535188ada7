/* Device groups: what src/group.c (the group and its split), src/group_run.c
 * (programs, kernels, launches, data), src/group_algo.c (the per-slice step,
 * the algorithms), src/group_runs.c (runs and histograms) and
 * src/group_sort.c (the sort) share. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_GROUP_INTERNAL_H
#define CLWARP_GROUP_INTERNAL_H

#include "clwarp/group.h"
#include "algo.h"
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

/* Release and clear buffers[0..count), as clwarp_group_buffers_free(). */
void group_release_buffers(const clwarp_group *group, cl_mem *buffers);

/* At least `bytes` of host memory to stage data through between devices,
 * kept by the group until a larger request or clwarp_group_free (pinned
 * where that is faster); NULL when out of memory. */
void *group_staging(clwarp_group *group, size_t bytes);

/* Wait for and release every event in events[0..count) that is not NULL,
 * within the group's time limit. The first that failed or timed out gives
 * the error, naming its device. */
clwarp_status group_wait(const clwarp_group *group, cl_event *events, const char *what);

/* src/group_algo.c: what the group algorithms share. */

/*
 * One step of a group call over its slices: for each device i below
 * `last` (0: every device) whose slice [offsets[i], offsets[i + 1]) is not
 * empty (or every one, with `empty`), run() enqueues device i's work on
 * its n elements and leaves in *event the event of its last command (NULL
 * for none; reads and copies chain to it with group_read_after and the
 * like); then the queue is flushed. run() is called in device order, so
 * it may carry host state from one device to the next. A failure names
 * its device; whatever was enqueued is waited for, within the group's
 * time limit, before this returns.
 */
struct group_step {
	clwarp_group *group;
	const char *fn;            /* the public call, for messages */
	const char *what;          /* the wait, for messages: "reducing a slice" */
	const size_t *offsets;
	size_t last;
	bool empty;
	void *ctx;
	clwarp_status (*run)(struct group_step *step, size_t i, size_t n, cl_event *event);
};
clwarp_status group_step(struct group_step *step);

/* Non-blocking transfers on device i after *event (released; NULL: none),
 * *event becoming the transfer's: read `bytes` at byte `offset` of
 * `buffer` into `host`, write them from `host` (which must stay valid
 * until waited for), or copy them from one buffer to another. */
clwarp_status group_read_after(clwarp_group *group, size_t i, cl_mem buffer, size_t offset,
			       size_t bytes, void *host, cl_event *event);
clwarp_status group_write_after(clwarp_group *group, size_t i, cl_mem buffer, size_t offset,
				size_t bytes, const void *host, cl_event *event);
clwarp_status group_copy_after(clwarp_group *group, size_t i, cl_mem from, size_t from_offset,
			       cl_mem to, size_t to_offset, size_t bytes, cl_event *event);

/* Device i's scratch element (16 bytes: any clwarp_type or a cl_uint),
 * made on first use, for the single results the calls read back. */
clwarp_status group_scratch(clwarp_group *group, size_t i, cl_mem *out);

/* acc = acc OP v in the element type, as the kernels compute it: integers
 * wrap around, floats follow fmin/fmax. */
void group_combine(clwarp_type type, clwarp_op op, union algo_value *acc,
		   const union algo_value *v);

/* The checks every algorithm makes first: the group, the buffer arrays
 * (`out` non-NULL too), the offsets (named `what`). */
clwarp_status group_check_call(const clwarp_group *group, const char *fn, const cl_mem *in,
			       const cl_mem *out, const size_t *offsets, const char *what);

#endif
