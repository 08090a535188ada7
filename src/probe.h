/* Backend probes: run a small kernel with one backend and check its answers. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_PROBE_H
#define CLWARP_PROBE_H

#include <stdbool.h>

#include "engine.h"

/* What a passing probe found out besides "it works". */
struct probe_findings {
	/* The warps are runs of the linear local id only where the local
	 * size's x extent is a multiple of W (sub-groups formed along
	 * dimension 0). */
	bool dim0_only;
	/* CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL reports the probe kernel's
	 * width pin, so every kernel's pin can be checked the same way. */
	bool pin_query;
};

/*
 * Build kernels/warp/probe.cl with `config`, run it, and compare every
 * value with a host reference, then check how warps are laid out in 2-D
 * and 3-D work-groups. Returns true when everything matched (`found`
 * says what else the probe learned); otherwise `why` says what failed (a
 * build error, a wrong value).
 */
bool probe_run(clwarp_engine *engine, const struct backend_config *config,
	       struct probe_findings *found, char *why, size_t why_size);

/*
 * The khr backend's native width: build a raw sub-group kernel without a
 * width pin, launch it at several local sizes and check that every launch
 * gives sub-groups of one width W (a power of two, 1 to 64) laid out as
 * consecutive runs of the linear local id, and that
 * clGetKernelSubGroupInfo says W too. `cl_std_30`: build with
 * -cl-std=CL3.0 (sub-groups as an OpenCL C 3.0 feature).
 */
bool probe_native_width(clwarp_engine *engine, bool cl_std_30, unsigned *width, char *why,
			size_t why_size);

/* The width kernel's source, for the cache key of its verdict. */
const char *probe_native_width_source(void);

#endif
