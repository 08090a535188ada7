/* clwarp-run --list-devices: every device with the backend and warp size
 * an engine on it would get, or why it gets none. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_LIST_DEVICES_H
#define CLWARP_RUN_LIST_DEVICES_H

#include "options.h"

/* One line per device on stdout (a JSON array with --json), the engines
 * made with @p o's options. Returns 0 or the exit status (message printed). */
int list_devices(const struct options *o);

#endif
