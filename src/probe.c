/* Backend probes: run kernels/warp/probe.cl and check it against a host reference. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "probe.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "kernels_embedded.h"
#include "program.h"

#define PROBE_ITEMS 64
#define PROBE_FIELDS 16

static const char *const field_names[PROBE_FIELDS] = {
	"warp_lane_id", "warp_shuffle", "warp_shuffle_down", "warp_shuffle_up",
	"warp_shuffle_xor", "warp_broadcast", "warp_reduce_add", "warp_reduce_min",
	"warp_reduce_max", "warp_scan_inclusive_add", "warp_scan_exclusive_max", "warp_all",
	"warp_any", "warp_ballot (low)", "warp_ballot (high)", "warp_id",
};

static int
probe_value(unsigned i)
{
	return (int)(i * 7 % 13) - 5;
}

/* The expected value of `field` for work-item `gid` with warp width `w` (see probe.cl). */
static int
probe_expected(unsigned field, unsigned gid, unsigned w)
{
	unsigned lane = gid % w, base = gid - lane;
	int acc;
	uint64_t ballot = 0;

	switch (field) {
	case 0: return (int)lane;
	case 1: return probe_value(base + (lane * 5 + 3) % w);
	case 2: return lane + 1 < w ? probe_value(gid + 1) : probe_value(gid);
	case 3: return lane >= 2 ? probe_value(gid - 2) : probe_value(gid);
	case 4: return (lane ^ 1) < w ? probe_value(base + (lane ^ 1)) : probe_value(gid);
	case 5: return probe_value(base);
	case 6:
		acc = 0;
		for (unsigned i = 0; i < w; i++)
			acc += probe_value(base + i);
		return acc;
	case 7:
	case 8:
		acc = probe_value(base);
		for (unsigned i = 1; i < w; i++) {
			int v = probe_value(base + i);
			acc = field == 7 ? (v < acc ? v : acc) : (v > acc ? v : acc);
		}
		return acc;
	case 9:
		acc = 0;
		for (unsigned i = 0; i <= lane; i++)
			acc += probe_value(base + i);
		return acc;
	case 10:
		acc = INT_MIN;
		for (unsigned i = 0; i < lane; i++)
			acc = probe_value(base + i) > acc ? probe_value(base + i) : acc;
		return acc;
	case 11: return 1;
	case 12: return 0;
	case 13:
	case 14:
		for (unsigned i = 0; i < w; i++)
			ballot |= (uint64_t)(probe_value(base + i) > 0) << i;
		return (int)(uint32_t)(field == 13 ? ballot : ballot >> 32);
	case 15: return (int)(gid / w);
	}
	return 0;
}

/* Run one probe kernel into `out` (`count` ints). */
static bool
probe_launch(clwarp_program *prog, const char *name, cl_mem buffer, char *why, size_t why_size)
{
	clwarp_kernel *kernel = NULL;
	size_t global = PROBE_ITEMS, local = PROBE_ITEMS;
	clwarp_status status;

	status = clwarp_program_kernel(prog, name, &kernel);
	if (status == CLWARP_OK)
		status = clwarp_kernel_set_arg_buffer(kernel, 0, buffer);
	if (status == CLWARP_OK)
		status = clwarp_kernel_launch(kernel, 1, &global, &local, NULL);
	clwarp_kernel_free(kernel);
	if (status != CLWARP_OK)
		snprintf(why, why_size, "running %s: %s", name, clwarp_last_error());
	return status == CLWARP_OK;
}

bool
probe_run(clwarp_engine *engine, const struct backend_config *config, char *why, size_t why_size)
{
	clwarp_program *prog = NULL;
	cl_mem buffer = NULL;
	int *out = NULL;
	size_t bytes = sizeof(int) * PROBE_ITEMS * PROBE_FIELDS;
	bool ok = false;
	unsigned w = config->warp_size;

	if (program_build_flags(engine, clwarp_kernel_warp_probe, "clwarp/warp/probe.cl", ".", NULL,
				config, PROGRAM_BUILD_MEMORY_ONLY, &prog, NULL) != CLWARP_OK) {
		snprintf(why, why_size, "%s", clwarp_last_error());
		return false;
	}
	out = calloc(1, bytes);
	if (!out || clwarp_buffer_new(engine, CL_MEM_READ_WRITE, bytes, out, &buffer) != CLWARP_OK) {
		snprintf(why, why_size, "probe buffer: %s", out ? clwarp_last_error() : "out of memory");
		goto out;
	}
	if (!probe_launch(prog, "clwarp_probe_info", buffer, why, why_size) ||
	    clwarp_buffer_read(engine, buffer, 0, 2 * sizeof(int), out) != CLWARP_OK)
		goto out;
	if ((unsigned)out[0] != w || (unsigned)out[1] != PROBE_ITEMS / w) {
		snprintf(why, why_size, "warp_size() = %d and warp_count() = %d, expected %u and %u",
			 out[0], out[1], w, PROBE_ITEMS / w);
		goto out;
	}
	if (!probe_launch(prog, "clwarp_probe", buffer, why, why_size) ||
	    clwarp_buffer_read(engine, buffer, 0, bytes, out) != CLWARP_OK)
		goto out;
	for (unsigned f = 0; f < PROBE_FIELDS; f++) {
		for (unsigned gid = 0; gid < PROBE_ITEMS; gid++) {
			int want = probe_expected(f, gid, w);
			int got = out[f * PROBE_ITEMS + gid];

			if (got != want) {
				snprintf(why, why_size, "%s gave %d on work-item %u, expected %d",
					 field_names[f], got, gid, want);
				goto out;
			}
		}
	}
	ok = true;
out:
	if (buffer)
		clReleaseMemObject(buffer);
	free(out);
	return ok;
}
