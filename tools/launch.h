/* clwarp-run: the launch and what follows it: the global and local sizes
 * and the warp contract, the device buffers and the kernel's arguments,
 * the launches with their times, the read-back with its guard zones and
 * --check's comparisons. Each step returns 0 or the exit status. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_LAUNCH_H
#define CLWARP_RUN_LAUNCH_H

#include "run-state.h"

/* The global and local sizes, and the warp contract for them. */
int run_sizes(struct run_state *s);

/* Device buffers, each with its guard zone, and the kernel's arguments. */
int run_set_args(struct run_state *s);

/* Launch, once or --repeat times, each from the same inputs. */
int run_launch(struct run_state *s);

/* Read back, and check every guard zone: a write past the end of any
 * buffer fails the run. Then --check's comparisons. */
int run_read_back(struct run_state *s);

#endif
