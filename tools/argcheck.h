/* clwarp-run: each -a SPEC checked against the kernel's parameter. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_ARGCHECK_H
#define CLWARP_RUN_ARGCHECK_H

#include "argspec.h"

#include <stdbool.h>
#include <stddef.h>

#include <clwarp/clwarp.h>

/*
 * Check SPEC @p a against parameter @p index of kernel @p k (named @p kname)
 * with clGetKernelArgInfo: the address space (buffer, local:, scalar), the
 * element type, and the parameters clwarp-run cannot give at all (images,
 * samplers, pipes; structs, vectors and half by value). A buffer for a
 * vector pointee (float4 *) must hold whole vectors. Returns true, or false
 * with the message in @p err. Where the driver has no argument info,
 * nothing is checked.
 */
bool argcheck(cl_kernel k, const char *kname, unsigned index, const struct argspec *a, char *err,
	      size_t errlen);

/* Does the driver give @p k's parameter types? (Intel's runtime does not
 * for a program made from a binary, e.g. one from the disk cache.) True
 * for a kernel without parameters. */
bool argcheck_has_types(cl_kernel k, unsigned nargs);

#endif
