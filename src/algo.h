/* Device-wide algorithms (src/algorithms.c): the engine's per-engine state. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_ALGO_H
#define CLWARP_ALGO_H

#include "engine.h"

/* Release the algorithms' kernels and temporary buffers (at engine teardown). */
void algorithms_free(clwarp_engine *engine);

#endif
