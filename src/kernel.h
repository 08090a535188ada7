/* Kernel objects for the library's own callers (src/algo*.c, src/group*.c,
 * src/probe.c): the public entries without their error reset. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_KERNEL_H
#define CLWARP_KERNEL_H

#include "engine.h"

/* The kernel's cl_kernel, as clwarp_kernel_cl(). */
cl_kernel kernel_cl(const clwarp_kernel *kernel);

/* clwarp_kernel_new and clwarp_kernel_free without the public entry's
 * error reset. */
clwarp_status kernel_new(clwarp_program *program, const char *name, clwarp_kernel **kernel);
void kernel_free(clwarp_kernel *kernel);

/* clwarp_kernel_set_arg_*: `value` NULL for a local argument of `size`
 * bytes (the callers check what the public entries check). */
clwarp_status kernel_set_arg(clwarp_kernel *kernel, unsigned index, size_t size,
			     const void *value);

/* clwarp_kernel_launch: blocking when `event` is NULL. */
clwarp_status kernel_launch(clwarp_kernel *kernel, unsigned dims, const size_t *global,
			    const size_t *local, cl_event *event);

/* clwarp_kernel_launch's checks, then an enqueue with a global offset
 * (may be NULL) and no wait; `event` may be NULL. */
clwarp_status kernel_enqueue_at(clwarp_kernel *kernel, unsigned dims, const size_t *offset,
				const size_t *global, const size_t *local, cl_event *event);

#endif
