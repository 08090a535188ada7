/* PoCL's own kernel cache (src/pocl_kcache.h says why it matters). */
/* SPDX-License-Identifier: MIT */
#include "pocl_kcache.h"

#include <stdlib.h>
#include <string.h>

static bool store_anyway;

void
pocl_kcache_store_anyway(bool on)
{
	store_anyway = on;
}

bool
pocl_kcache_on(const clwarp_device_info *info)
{
	const char *v = getenv("POCL_KERNEL_CACHE");

	if (store_anyway)
		return false;
	if (!info || !info->platform_name || !strstr(info->platform_name, "Portable Computing Language"))
		return false;
	/* Its remote and GPU drivers return binaries without compiling them all. */
	if (!(info->type & CL_DEVICE_TYPE_CPU))
		return false;
	return !v || atoi(v) != 0;
}
