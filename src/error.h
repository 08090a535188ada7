/* Per-thread error state: the message and OpenCL code of the last failure. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_ERROR_H
#define CLWARP_ERROR_H

#include "clwarp/clwarp.h"
#include "log.h"

/* Record a message for clwarp_last_error() and return `status`. */
clwarp_status set_error(clwarp_status status, const char *fmt, ...) CLWARP_PRINTF(2, 3);

/* Record a failed OpenCL call: "<what>: CL_ERROR_NAME", and return CLWARP_ERROR_OPENCL
 * (or CLWARP_ERROR_OUT_OF_MEMORY / CLWARP_ERROR_TOO_LARGE where the code says so). */
clwarp_status set_cl_error(cl_int err, const char *what);

/* Make another thread's error (its status, clwarp_last_cl_error() and
 * message) this thread's, e.g. a group's build worker's. */
clwarp_status set_error_state(clwarp_status status, cl_int cl_error, const char *message);
/* Forget the last error (at the start of a public call). */
void clear_error(void);

/* This thread's last message and OpenCL code, as clwarp_last_error() and
 * clwarp_last_cl_error() give them. */
const char *error_message(void);
cl_int error_cl_code(void);

/* "CL_OUT_OF_RESOURCES" for -5, as clwarp_cl_error_name(). */
const char *cl_error_name(cl_int err);

#endif
