/* Build-only test: the public headers compile as strict C99 with every warning on. */
/* SPDX-License-Identifier: MIT */
#include <clwarp/clwarp.h>
#include <clwarp/algorithms.h>
#include <clwarp/group.h>

int
main(void)
{
	return clwarp_version() ? 0 : 1;
}
