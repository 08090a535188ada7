/* Function-like kernel macros, expanded where a kernel is declared with one. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_KERNELEXPAND_H
#define CLWARP_KERNELEXPAND_H

#include "clwarp/clwarp.h"
#include "kernelmacro.h"
#include "util.h"

/*
 * `text` starts a kernel declared through a kernel macro the rewrite
 * expands (KERNEL_USE_CALL: `KERNEL_FN(name)`, blanks and its arguments
 * after the name, or an object-like macro defined to such a call), at
 * file:line. Append to `out` what the macro expands to, as far
 * as its `kernel` (`__kernel void name`), with the width pin `pin` (0:
 * none) right after that word, and the source's line breaks (counted in
 * *line), so that the rewrite and the compiler see the kernel's name and
 * its parameter list alike; *after: where the invocation ends. A macro the
 * expansion cannot follow is an error.
 */
clwarp_status kernel_expand(const struct kernel_macros *macros, const char *text, unsigned pin,
			    const char *file, unsigned *line, struct strbuf *out, const char **after);

#endif
