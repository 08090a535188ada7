/* Backend probes: run a small kernel with one backend and check its answers. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_PROBE_H
#define CLWARP_PROBE_H

#include <stdbool.h>

#include "engine.h"

/*
 * Build kernels/warp/probe.cl with `config`, run it, and compare every
 * value with a host reference. Returns true when everything matched;
 * otherwise `why` says what failed (a build error, a wrong value).
 */
bool probe_run(clwarp_engine *engine, const struct backend_config *config, char *why,
	       size_t why_size);

#endif
