/* Engine slots for PoCL 4 and 5 (src/pocl_slot.h says why). */
/* SPDX-License-Identifier: MIT */
#include "pocl_slot.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t slots_taken = 1;  /* bit k: slot k is taken; 0 means "no slot" */

/* "OpenCL 3.0 PoCL 5.0+debian ...": the versions whose kernel cache
 * releases by hash and local size alone (PoCL 6 releases the entry it
 * took; 3.1's entries have no grid or offset of their own). */
static bool
pocl_shares_kernels(const clwarp_device_info *info)
{
	const char *v = info && info->platform_version ? strstr(info->platform_version, "PoCL ") : NULL;
	long major;

	if (!v)
		return false;
	major = strtol(v + 5, NULL, 10);
	return major == 4 || major == 5;
}

unsigned
pocl_slot_take(const clwarp_device_info *info)
{
	unsigned slot = 0;

	if (!pocl_shares_kernels(info))
		return 0;
	pthread_mutex_lock(&slots_lock);
	for (unsigned k = 1; k < 64; k++) {
		if (!(slots_taken & ((uint64_t)1 << k))) {
			slots_taken |= (uint64_t)1 << k;
			slot = k;
			break;
		}
	}
	pthread_mutex_unlock(&slots_lock);
	return slot;
}

void
pocl_slot_give(unsigned slot)
{
	if (slot == 0 || slot >= 64)
		return;
	pthread_mutex_lock(&slots_lock);
	slots_taken &= ~((uint64_t)1 << slot);
	pthread_mutex_unlock(&slots_lock);
}
