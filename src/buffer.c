/* Buffers: create from host data, blocking and asynchronous reads and writes. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "buffer.h"

#include <stdbool.h>

#include "engine.h"
#include "error.h"
#include "staging.h"

clwarp_status
buffer_new(clwarp_engine *engine, cl_mem_flags flags, size_t bytes, const void *host_data,
	   cl_mem *buffer)
{
	cl_int err;
	cl_mem mem;

	if (!engine || !buffer)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine or output");
	*buffer = NULL;
	if (bytes == 0)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "a buffer of 0 bytes");
	if (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_buffer_new takes no host-pointer flags");
	if (bytes > engine->info.max_alloc_size)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 "a buffer of %zu bytes exceeds the device's largest allocation (%llu bytes)",
				 bytes, (unsigned long long)engine->info.max_alloc_size);
	if (host_data)
		flags |= CL_MEM_COPY_HOST_PTR;
	mem = clCreateBuffer(engine->context, flags ? flags : CL_MEM_READ_WRITE, bytes,
			     (void *)(uintptr_t)host_data, &err);
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clCreateBuffer");
	*buffer = mem;
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_buffer_new(clwarp_engine *engine, cl_mem_flags flags, size_t bytes, const void *host_data,
		  cl_mem *buffer)
{
	clear_error();
	return buffer_new(engine, flags, bytes, host_data, buffer);
}

/* A read or write of @p bytes at @p offset must lie inside the buffer; the
 * driver would say only CL_INVALID_VALUE (and an offset near SIZE_MAX
 * wraps the end around). */
static clwarp_status
check_range(cl_mem buffer, size_t offset, size_t bytes, const char *what)
{
	size_t size = 0;

	if (bytes > SIZE_MAX - offset)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s %zu bytes at offset %zu: the end overflows size_t", what, bytes, offset);
	if (clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof(size), &size, NULL) == CL_SUCCESS &&
	    offset + bytes > size)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s %zu bytes at offset %zu of a buffer of %zu bytes: past its end", what, bytes,
				 offset, size);
	return CLWARP_OK;
}

clwarp_status
buffer_read(clwarp_engine *engine, cl_mem buffer, size_t offset, size_t bytes, void *dst)
{
	if (!engine || !buffer || (!dst && bytes))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine, buffer or destination");
	if (check_range(buffer, offset, bytes, "reading") != CLWARP_OK)
		return CLWARP_ERROR_INVALID_ARGUMENT;
	/* OpenCL 1.2 calls a copy of 0 bytes CL_INVALID_VALUE; ours is nothing to do. */
	if (bytes == 0)
		return CLWARP_OK;
	return staging_copy(engine, buffer, offset, bytes, dst, false);
}

CLWARP_EXPORT clwarp_status
clwarp_buffer_read(clwarp_engine *engine, cl_mem buffer, size_t offset, size_t bytes, void *dst)
{
	clear_error();
	return buffer_read(engine, buffer, offset, bytes, dst);
}

CLWARP_EXPORT clwarp_status
clwarp_buffer_write(clwarp_engine *engine, cl_mem buffer, size_t offset, size_t bytes,
		    const void *src)
{
	clear_error();
	if (!engine || !buffer || (!src && bytes))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine, buffer or source");
	if (check_range(buffer, offset, bytes, "writing") != CLWARP_OK)
		return CLWARP_ERROR_INVALID_ARGUMENT;
	if (bytes == 0)
		return CLWARP_OK;
	/* Staged through the engine's pinned chunks where that is faster; the
	 * helper only reads from a write's host memory. */
	return staging_copy(engine, buffer, offset, bytes, (void *)(uintptr_t)src, true);
}

/* A wait list as OpenCL takes it, checked here: the driver would say
 * only CL_INVALID_EVENT_WAIT_LIST. */
static clwarp_status
check_wait(cl_uint num_wait, const cl_event *wait)
{
	if (num_wait && !wait)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "a wait list of %u events that is NULL",
				 (unsigned)num_wait);
	if (!num_wait && wait)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "a wait list that is not NULL with num_wait 0");
	for (cl_uint i = 0; i < num_wait; i++)
		if (!wait[i])
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "event %u of the wait list of %u is NULL", (unsigned)i, (unsigned)num_wait);
	return CLWARP_OK;
}

/* The asynchronous copies: the checks of the blocking ones, then a
 * non-blocking enqueue. A copy of 0 bytes still honours the wait list
 * and gives an event, through a marker. */
static clwarp_status
copy_async(clwarp_engine *engine, cl_mem buffer, size_t offset, size_t bytes, void *host,
	   bool write, cl_uint num_wait, const cl_event *wait, cl_event *event)
{
	cl_int err;

	if (event)
		*event = NULL;
	if (!engine || !buffer || (!host && bytes))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, write ? "NULL engine, buffer or source"
								: "NULL engine, buffer or destination");
	if (check_range(buffer, offset, bytes, write ? "writing" : "reading") != CLWARP_OK)
		return CLWARP_ERROR_INVALID_ARGUMENT;
	if (check_wait(num_wait, wait) != CLWARP_OK)
		return CLWARP_ERROR_INVALID_ARGUMENT;
	if (bytes == 0) {
		if (!num_wait && !event)
			return CLWARP_OK;
		err = clEnqueueMarkerWithWaitList(engine->queue, num_wait, wait, event);
		return err == CL_SUCCESS ? CLWARP_OK : set_cl_error(err, "clEnqueueMarkerWithWaitList");
	}
	if (write)
		err = clEnqueueWriteBuffer(engine->queue, buffer, CL_FALSE, offset, bytes, host, num_wait,
					   wait, event);
	else
		err = clEnqueueReadBuffer(engine->queue, buffer, CL_FALSE, offset, bytes, host, num_wait,
					  wait, event);
	if (err != CL_SUCCESS) {
		if (event)
			*event = NULL;
		return set_cl_error(err, write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
	}
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_buffer_read_async(clwarp_engine *engine, cl_mem buffer, size_t offset, size_t bytes,
			 void *dst, cl_uint num_wait, const cl_event *wait, cl_event *event)
{
	clear_error();
	return copy_async(engine, buffer, offset, bytes, dst, false, num_wait, wait, event);
}

CLWARP_EXPORT clwarp_status
clwarp_buffer_write_async(clwarp_engine *engine, cl_mem buffer, size_t offset, size_t bytes,
			  const void *src, cl_uint num_wait, const cl_event *wait, cl_event *event)
{
	clear_error();
	/* OpenCL's write takes a const pointer; only the shared helper drops it. */
	return copy_async(engine, buffer, offset, bytes, (void *)(uintptr_t)src, true, num_wait, wait,
			  event);
}
