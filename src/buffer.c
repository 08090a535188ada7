/* Buffers: create from host data, blocking reads and writes. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "buffer.h"
#include "engine.h"
#include "error.h"

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
	cl_int err;

	if (!engine || !buffer || (!dst && bytes))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine, buffer or destination");
	if (check_range(buffer, offset, bytes, "reading") != CLWARP_OK)
		return CLWARP_ERROR_INVALID_ARGUMENT;
	err = clEnqueueReadBuffer(engine->queue, buffer, CL_TRUE, offset, bytes, dst, 0, NULL, NULL);
	return err == CL_SUCCESS ? CLWARP_OK : set_cl_error(err, "clEnqueueReadBuffer");
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
	cl_int err;

	clear_error();
	if (!engine || !buffer || (!src && bytes))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine, buffer or source");
	if (check_range(buffer, offset, bytes, "writing") != CLWARP_OK)
		return CLWARP_ERROR_INVALID_ARGUMENT;
	err = clEnqueueWriteBuffer(engine->queue, buffer, CL_TRUE, offset, bytes, src, 0, NULL, NULL);
	return err == CL_SUCCESS ? CLWARP_OK : set_cl_error(err, "clEnqueueWriteBuffer");
}
