/* Per-thread error state and the status and OpenCL error names. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

#include "util.h"

static _Thread_local char last_message[8192];
static _Thread_local cl_int last_cl_error;

CLWARP_EXPORT const char *
clwarp_version(void)
{
	return CLWARP_VERSION;
}

clwarp_status
set_error(clwarp_status status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_message, sizeof(last_message), fmt, ap);
	va_end(ap);
	return status;
}

clwarp_status
set_cl_error(cl_int err, const char *what)
{
	clwarp_status status = CLWARP_ERROR_OPENCL;

	last_cl_error = err;
	if (err == CL_OUT_OF_HOST_MEMORY)
		status = CLWARP_ERROR_OUT_OF_MEMORY;
	else if (err == CL_INVALID_BUFFER_SIZE || err == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
		 err == CL_OUT_OF_RESOURCES)
		status = CLWARP_ERROR_TOO_LARGE;
	return set_error(status, "%s: %s", what, cl_error_name(err));
}

clwarp_status
set_error_state(clwarp_status status, cl_int cl_error, const char *message)
{
	last_cl_error = cl_error;
	return set_error(status, "%s", message);
}

void
clear_error(void)
{
	last_message[0] = '\0';
	last_cl_error = CL_SUCCESS;
}

const char *
error_message(void)
{
	return last_message;
}

cl_int
error_cl_code(void)
{
	return last_cl_error;
}

CLWARP_EXPORT const char *
clwarp_last_error(void)
{
	return error_message();
}

CLWARP_EXPORT cl_int
clwarp_last_cl_error(void)
{
	return error_cl_code();
}

CLWARP_EXPORT const char *
clwarp_status_name(clwarp_status status)
{
	switch (status) {
	case CLWARP_OK: return "success";
	case CLWARP_ERROR_INVALID_ARGUMENT: return "invalid argument";
	case CLWARP_ERROR_OUT_OF_MEMORY: return "out of memory";
	case CLWARP_ERROR_NO_DEVICE: return "no OpenCL device found";
	case CLWARP_ERROR_DEVICE_NOT_FOUND: return "no device matches the device spec";
	case CLWARP_ERROR_IO: return "file input/output error";
	case CLWARP_ERROR_BUILD: return "OpenCL C build failed";
	case CLWARP_ERROR_KERNEL_NOT_FOUND: return "kernel not found";
	case CLWARP_ERROR_OPENCL: return "OpenCL call failed";
	case CLWARP_ERROR_BACKEND_UNAVAILABLE: return "warp backend unavailable on this device";
	case CLWARP_ERROR_WARP_CONTRACT: return "launch breaks the warp contract";
	case CLWARP_ERROR_TOO_LARGE: return "size too large";
	case CLWARP_ERROR_TIMEOUT: return "device timed out";
	}
	return "unknown status";
}

const char *
cl_error_name(cl_int err)
{
#define CASE(e) case e: return #e
	switch (err) {
	CASE(CL_SUCCESS);
	CASE(CL_DEVICE_NOT_FOUND);
	CASE(CL_DEVICE_NOT_AVAILABLE);
	CASE(CL_COMPILER_NOT_AVAILABLE);
	CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE);
	CASE(CL_OUT_OF_RESOURCES);
	CASE(CL_OUT_OF_HOST_MEMORY);
	CASE(CL_PROFILING_INFO_NOT_AVAILABLE);
	CASE(CL_MEM_COPY_OVERLAP);
	CASE(CL_IMAGE_FORMAT_MISMATCH);
	CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED);
	CASE(CL_BUILD_PROGRAM_FAILURE);
	CASE(CL_MAP_FAILURE);
	CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET);
	CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CASE(CL_COMPILE_PROGRAM_FAILURE);
	CASE(CL_LINKER_NOT_AVAILABLE);
	CASE(CL_LINK_PROGRAM_FAILURE);
	CASE(CL_DEVICE_PARTITION_FAILED);
	CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
	CASE(CL_INVALID_VALUE);
	CASE(CL_INVALID_DEVICE_TYPE);
	CASE(CL_INVALID_PLATFORM);
	CASE(CL_INVALID_DEVICE);
	CASE(CL_INVALID_CONTEXT);
	CASE(CL_INVALID_QUEUE_PROPERTIES);
	CASE(CL_INVALID_COMMAND_QUEUE);
	CASE(CL_INVALID_HOST_PTR);
	CASE(CL_INVALID_MEM_OBJECT);
	CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
	CASE(CL_INVALID_IMAGE_SIZE);
	CASE(CL_INVALID_SAMPLER);
	CASE(CL_INVALID_BINARY);
	CASE(CL_INVALID_BUILD_OPTIONS);
	CASE(CL_INVALID_PROGRAM);
	CASE(CL_INVALID_PROGRAM_EXECUTABLE);
	CASE(CL_INVALID_KERNEL_NAME);
	CASE(CL_INVALID_KERNEL_DEFINITION);
	CASE(CL_INVALID_KERNEL);
	CASE(CL_INVALID_ARG_INDEX);
	CASE(CL_INVALID_ARG_VALUE);
	CASE(CL_INVALID_ARG_SIZE);
	CASE(CL_INVALID_KERNEL_ARGS);
	CASE(CL_INVALID_WORK_DIMENSION);
	CASE(CL_INVALID_WORK_GROUP_SIZE);
	CASE(CL_INVALID_WORK_ITEM_SIZE);
	CASE(CL_INVALID_GLOBAL_OFFSET);
	CASE(CL_INVALID_EVENT_WAIT_LIST);
	CASE(CL_INVALID_EVENT);
	CASE(CL_INVALID_OPERATION);
	CASE(CL_INVALID_GL_OBJECT);
	CASE(CL_INVALID_BUFFER_SIZE);
	CASE(CL_INVALID_MIP_LEVEL);
	CASE(CL_INVALID_GLOBAL_WORK_SIZE);
	CASE(CL_INVALID_PROPERTY);
	CASE(CL_INVALID_IMAGE_DESCRIPTOR);
	CASE(CL_INVALID_COMPILER_OPTIONS);
	CASE(CL_INVALID_LINKER_OPTIONS);
	CASE(CL_INVALID_DEVICE_PARTITION_COUNT);
	}
#undef CASE
	return "CL_UNKNOWN_ERROR";
}

CLWARP_EXPORT const char *
clwarp_cl_error_name(cl_int err)
{
	return cl_error_name(err);
}
