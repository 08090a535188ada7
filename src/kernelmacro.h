/* Kernels declared through macros: the names that expand to `kernel`. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_KERNELMACRO_H
#define CLWARP_KERNELMACRO_H

#include <stdbool.h>
#include <stddef.h>

#include "clwarp/clwarp.h"

/*
 * Object-like macros whose expansion starts with `kernel` or `__kernel`
 * (`#define KERNEL kernel`, `#define __global__ __kernel`): the source
 * rewrite treats each use as the keyword, so the width pin and the local
 * backend's scratch parameter reach kernels declared that way. A macro
 * that expands to another such macro counts too. Function-like macros
 * are not followed; the width check after the build catches what is left
 * (src/kernel.c).
 */
struct kernel_macros {
	char **names;
	size_t count;
};

/* Look at one #define directive, `text` .. `end` (after the `#`, the
 * continuation lines included): remember its name if it names a kernel.
 * #undef forgets the name. Out of memory is the only error. */
clwarp_status kernel_macros_directive(struct kernel_macros *macros, const char *text,
				      const char *end);

/* Is the identifier `name` (`len` bytes) `kernel`, `__kernel` or one of the macros? */
bool kernel_macros_is_kernel(const struct kernel_macros *macros, const char *name, size_t len);

void kernel_macros_free(struct kernel_macros *macros);

#endif
