/* Engine slots for PoCL 4 and 5: no two live engines share a kernel hash there. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_POCL_SLOT_H
#define CLWARP_POCL_SLOT_H

#include "clwarp/clwarp.h"

/*
 * PoCL 4.x and 5.x keep the loaded kernels of every context and device of
 * a process in one cache, and release an entry by kernel hash and local
 * size alone: two queues running one kernel at once, on grids of different
 * sizes or offsets, abort the process in pocl_release_dlhandle_cache
 * (contrib/driver-bugs/pocl-5.0-two-devices/README.md). Engines are such queues (an
 * engine per thread, a device group's engines). So each engine on those
 * versions takes the lowest free slot k (1 to 63) and builds with
 * -D CLWARP_POCL_SLOT=k: programs of its own, kernel hashes of their own.
 * A process's first engine always gets slot 1, so its disk cache entries
 * serve the next process's first engine. Not covered: a 64th live engine
 * (slot 0, shared) and an application's out-of-order queue under one engine.
 */

/* A slot for an engine on @p info's platform; 0 where none is needed or
 * every slot is taken (no define: such engines share kernel hashes). */
unsigned pocl_slot_take(const clwarp_device_info *info);
/* Give @p slot back (0 is a no-op). */
void pocl_slot_give(unsigned slot);

#endif
