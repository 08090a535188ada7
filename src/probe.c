/* Backend probes: run kernels/warp/probe.cl and check it against a host reference. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "probe.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "device.h"
#include "error.h"
#include "kernel.h"
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

#define NATIVE_FIELDS 8

static const char *const native_names[NATIVE_FIELDS] = {
	"warp_reduce_mul (uint)", "warp_reduce_xor (uint)", "warp_reduce_xor (ulong, high word)",
	"warp_reduce_mul (int)", "warp_reduce_mul (ulong, folded)", "warp_broadcast (uint4)",
	"warp_broadcast (uint8)", "warp_broadcast (ulong2)",
};

/* The expected value of clwarp_probe_native's `field` (see probe.cl). */
static int
native_expected(unsigned field, unsigned gid, unsigned w)
{
	unsigned base = gid - gid % w;
	uint32_t acc = field == 0 ? 1u : 0u;
	uint64_t acc64 = 1u;
	int sign = 1;

	switch (field) {
	case 5: return (int)((base + 3 % w) ^ 5u);
	case 6: return (int)((base + 1 % w) + 7u * ((base + 1 % w) * 0x9E3779B1u));
	case 7: return (int)((base + 2 % w) * 0x9E3779B1u);
	}
	for (unsigned i = base; i < base + w; i++) {
		int v = probe_value(i);

		switch (field) {
		case 0: acc *= (uint32_t)(v + 6); break;
		case 1: case 2: acc ^= i * 0x9E3779B1u; break;
		case 3: sign *= v > 0 ? 1 : -1; break;
		case 4: acc64 *= (uint64_t)(v + 6); break;
		}
	}
	if (field == 3)
		return sign;
	if (field == 4)
		return (int)((uint32_t)acc64 ^ (uint32_t)(acc64 >> 32));
	return (int)acc;
}

/* Run one probe kernel into `out` (`count` ints). */
static bool
probe_launch(clwarp_program *prog, const char *name, cl_mem buffer, char *why, size_t why_size)
{
	clwarp_kernel *kernel = NULL;
	size_t global = PROBE_ITEMS, local = PROBE_ITEMS;
	clwarp_status status;

	status = kernel_new(prog, name, &kernel);
	if (status == CLWARP_OK)
		status = kernel_set_arg(kernel, 0, sizeof(buffer), &buffer);
	if (status == CLWARP_OK)
		status = kernel_launch(kernel, 1, &global, &local, NULL);
	kernel_free(kernel);
	if (status != CLWARP_OK)
		snprintf(why, why_size, "running %s: %s", name, error_message());
	return status == CLWARP_OK;
}

/* One launch of clwarp_probe_layout at `local` (global = local); false with
 * `why` set when it cannot run. *linear: every work-item's answers are
 * those of warps made of runs of the linear local id. */
static bool
layout_launch(clwarp_program *prog, cl_mem buffer, unsigned dims, const size_t *local,
	      unsigned w, cl_uint *out, bool *linear, char *why, size_t why_size)
{
	clwarp_engine *engine = prog->engine;
	clwarp_kernel *kernel = NULL;
	size_t items = local[0] * local[1] * local[2];
	clwarp_status status;

	/* Every work-item writes all of its fields: nothing is left over
	 * from the launch before. */
	status = kernel_new(prog, "clwarp_probe_layout", &kernel);
	if (status == CLWARP_OK)
		status = kernel_set_arg(kernel, 0, sizeof(buffer), &buffer);
	if (status == CLWARP_OK)
		status = kernel_launch(kernel, dims, local, local, NULL);
	kernel_free(kernel);
	if (status == CLWARP_OK)
		status = buffer_read(engine, buffer, 0, items * 3 * sizeof(cl_uint), out);
	if (status != CLWARP_OK) {
		snprintf(why, why_size, "running clwarp_probe_layout at local size %zu x %zu x %zu: %s",
			 local[0], local[1], local[2], error_message());
		return false;
	}
	*linear = true;
	for (unsigned l = 0; l < items; l++)
		if (out[3 * l] != l % w || out[3 * l + 1] != l - l % w || out[3 * l + 2] != w)
			*linear = false;
	return true;
}

/*
 * How warps are laid out in 2-D and 3-D work-groups. With the x extent a
 * multiple of W they must be runs of the linear local id (or the backend
 * fails); with an x extent of W/2 they may not be: Intel's runtime forms
 * sub-groups along dimension 0 only, so its warps then stop at the end of
 * each row. *dim0_only says so, and launches whose x extent is not a
 * multiple of W are refused (src/kernel.c).
 */
static bool
probe_layout(clwarp_engine *engine, clwarp_program *prog, unsigned w, bool *dim0_only, char *why,
	     size_t why_size)
{
	const size_t whole[2][3] = { { w, 2, 1 }, { w, 2, 2 } };
	const size_t half[2][3] = { { w / 2, 4, 1 }, { w / 2, 2, 2 } };
	cl_mem buffer = NULL;
	cl_uint *out = NULL;
	size_t bytes = 3 * sizeof(cl_uint) * 4 * (size_t)w;
	bool ok = false, linear = true;

	*dim0_only = false;
	if (w < 2 || 4 * (size_t)w > engine->info.max_work_group_size)
		return true;
	out = calloc(1, bytes);
	if (!out || buffer_new(engine, CL_MEM_READ_WRITE, bytes, NULL, &buffer) != CLWARP_OK) {
		snprintf(why, why_size, "layout probe buffer: %s", out ? error_message() : "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < 2; i++) {
		if (!layout_launch(prog, buffer, i + 2, whole[i], w, out, &linear, why, why_size))
			goto out;
		if (!linear) {
			snprintf(why, why_size,
				 "at local size %zu x %zu x %zu (x a multiple of the warp width %u) warps are not runs of the linear local id",
				 whole[i][0], whole[i][1], whole[i][2], w);
			goto out;
		}
	}
	for (unsigned i = 0; i < 2 && !*dim0_only; i++) {
		if (!layout_launch(prog, buffer, i + 2, half[i], w, out, &linear, why, why_size))
			goto out;
		*dim0_only = !linear;
	}
	ok = true;
out:
	if (buffer)
		clReleaseMemObject(buffer);
	free(out);
	return ok;
}

/* Does CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL report the pin of a kernel
 * the rewrite pinned to `w`? (PoCL refuses the query.) */
static bool
pin_query_works(clwarp_program *prog, unsigned w)
{
	clwarp_engine *engine = prog->engine;
	clwarp_kernel *kernel = NULL;
	size_t got = 0;
	bool ok;

	if (kernel_new(prog, "clwarp_probe", &kernel) != CLWARP_OK)
		return false;
	ok = device_kernel_compile_sub_group_size(&engine->info, engine->device, kernel_cl(kernel),
						  &got) == CL_SUCCESS && got == w;
	kernel_free(kernel);
	return ok;
}

/* The native collectives in use (config->features): their kernel's answers
 * in `out` (NATIVE_FIELDS * PROBE_ITEMS ints). */
static bool
probe_native(clwarp_program *prog, const struct backend_config *config, cl_mem buffer, int *out,
	     char *why, size_t why_size)
{
	unsigned w = config->warp_size;

	if (!(config->features & (FEATURE_SG_NON_UNIFORM_ARITH | FEATURE_SG_EXTENDED_TYPES)))
		return true;
	if (!probe_launch(prog, "clwarp_probe_native", buffer, why, why_size) ||
	    buffer_read(prog->engine, buffer, 0, sizeof(int) * PROBE_ITEMS * NATIVE_FIELDS, out) !=
		    CLWARP_OK)
		return false;
	for (unsigned f = 0; f < NATIVE_FIELDS; f++) {
		for (unsigned gid = 0; gid < PROBE_ITEMS; gid++) {
			int want = native_expected(f, gid, w);
			int got = out[f * PROBE_ITEMS + gid];

			if (got != want) {
				snprintf(why, why_size, "%s gave %d on work-item %u, expected %d",
					 native_names[f], got, gid, want);
				return false;
			}
		}
	}
	return true;
}

bool
probe_run(clwarp_engine *engine, const struct backend_config *config,
	  struct probe_findings *found, char *why, size_t why_size)
{
	clwarp_program *prog = NULL;
	cl_mem buffer = NULL;
	int *out = NULL;
	size_t bytes = sizeof(int) * PROBE_ITEMS * PROBE_FIELDS;
	bool ok = false;
	unsigned w = config->warp_size;

	*found = (struct probe_findings){ 0 };
	if (program_build_flags(engine, clwarp_kernel_warp_probe, "clwarp/warp/probe.cl", ".", NULL,
				config, PROGRAM_BUILD_MEMORY_ONLY, NULL, &prog, NULL) != CLWARP_OK) {
		snprintf(why, why_size, "%s", error_message());
		return false;
	}
	out = calloc(1, bytes);
	if (!out || buffer_new(engine, CL_MEM_READ_WRITE, bytes, out, &buffer) != CLWARP_OK) {
		snprintf(why, why_size, "probe buffer: %s", out ? error_message() : "out of memory");
		goto out;
	}
	if (!probe_launch(prog, "clwarp_probe_info", buffer, why, why_size) ||
	    buffer_read(engine, buffer, 0, 2 * sizeof(int), out) != CLWARP_OK)
		goto out;
	if ((unsigned)out[0] != w || (unsigned)out[1] != PROBE_ITEMS / w) {
		snprintf(why, why_size, "warp_size() = %d and warp_count() = %d, expected %u and %u",
			 out[0], out[1], w, PROBE_ITEMS / w);
		goto out;
	}
	if (!probe_launch(prog, "clwarp_probe", buffer, why, why_size) ||
	    buffer_read(engine, buffer, 0, bytes, out) != CLWARP_OK)
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
	if (!probe_native(prog, config, buffer, out, why, why_size))
		goto out;
	ok = probe_layout(engine, prog, w, &found->dim0_only, why, why_size);
	found->pin_query = ok && !config->native && config->backend != CLWARP_BACKEND_NV &&
			   pin_query_works(prog, w);
out:
	if (buffer)
		clReleaseMemObject(buffer);
	free(out);
	return ok;
}

/* ---- The native sub-group width (khr backend without a pin) ---- */

/* Raw OpenCL C, no warp prelude: what the driver does with sub-groups when
 * nothing pins their width. Each work-item writes its sub-group size, the
 * maximum, its lane and its sub-group id. */
static const char native_width_source[] =
	"#ifndef CLWARP_KHR_CL3\n"
	"#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
	"#endif\n"
	"__kernel void clwarp_native_width(__global uint *out)\n"
	"{\n"
	"\tuint l = (uint)(get_local_id(0) + get_local_size(0) *\n"
	"\t\t(get_local_id(1) + get_local_size(1) * get_local_id(2)));\n"
	"\tout[4 * l + 0] = get_sub_group_size();\n"
	"\tout[4 * l + 1] = get_max_sub_group_size();\n"
	"\tout[4 * l + 2] = get_sub_group_local_id();\n"
	"\tout[4 * l + 3] = get_sub_group_id();\n"
	"}\n";

const char *
probe_native_width_source(void)
{
	return native_width_source;
}

#define WIDTH_SHAPES 5
#define WIDTH_MAX_ITEMS 256

static void
shape_text(const size_t *local, char *text, size_t size)
{
	if (local[1] > 1)
		snprintf(text, size, "%zux%zu", local[0], local[1]);
	else
		snprintf(text, size, "%zu", local[0]);
}

/* One launch of the width kernel with local size `local` (2-D), global = local. */
static bool
width_launch(clwarp_engine *e, cl_kernel kernel, cl_mem buffer, const size_t *local, cl_uint *out,
	     unsigned *width, char *why, size_t why_size)
{
	size_t items = local[0] * local[1], query = 0;
	char shape[32];
	cl_int err;
	unsigned w;

	shape_text(local, shape, sizeof(shape));
	memset(out, 0xff, items * 4 * sizeof(cl_uint));
	err = clEnqueueWriteBuffer(e->queue, buffer, CL_TRUE, 0, items * 4 * sizeof(cl_uint), out, 0,
				   NULL, NULL);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(e->queue, kernel, 2, NULL, local, local, 0, NULL, NULL);
	if (err == CL_SUCCESS)
		err = clEnqueueReadBuffer(e->queue, buffer, CL_TRUE, 0, items * 4 * sizeof(cl_uint), out,
					  0, NULL, NULL);
	if (err != CL_SUCCESS) {
		snprintf(why, why_size, "the sub-group width kernel failed at local size %s: %s", shape,
			 cl_error_name(err));
		return false;
	}
	w = out[0];
	for (unsigned l = 0; l < items; l++) {
		const cl_uint *o = out + 4 * l;

		if (w == 0 || o[0] != w || o[1] != w || o[2] != l % w || o[3] != l / w) {
			snprintf(why, why_size,
				 "at local size %s, work-item %u is lane %u of sub-group %u of %u lanes (maximum %u); "
				 "expected lane %u of sub-group %u of %u lanes: the sub-groups are not "
				 "consecutive runs of one width",
				 shape, l, o[2], o[3], o[0], o[1], w ? l % w : 0, w ? l / w : 0, w);
			return false;
		}
	}
	err = device_kernel_sub_group_size(&e->info, e->device, kernel, 2, local, &query);
	if (err != CL_SUCCESS) {
		snprintf(why, why_size, "clGetKernelSubGroupInfo: %s, so kernels cannot be checked",
			 cl_error_name(err));
		return false;
	}
	if (query != w) {
		snprintf(why, why_size,
			 "at local size %s, clGetKernelSubGroupInfo says %zu lanes but the kernel measured %u: "
			 "a width that cannot be trusted", shape, query, w);
		return false;
	}
	*width = w;
	return true;
}

bool
probe_native_width(clwarp_engine *e, bool cl_std_30, unsigned *width, char *why, size_t why_size)
{
	static const size_t shapes[WIDTH_SHAPES][2] = { { 64, 1 }, { 128, 1 }, { 256, 1 }, { 32, 1 },
							  { 16, 4 } };
	const char *text = native_width_source;
	const char *options = cl_std_30 ? "-cl-std=CL3.0 -DCLWARP_KHR_CL3" : "";
	cl_program program = NULL;
	cl_kernel kernel = NULL;
	cl_mem buffer = NULL;
	cl_uint *out = NULL;
	cl_int err;
	unsigned w = 0, first = 0;
	size_t first_shape = 0;
	bool ok = false;

	*width = 0;
	program = clCreateProgramWithSource(e->context, 1, &text, NULL, &err);
	if (err == CL_SUCCESS)
		err = program_cl_build(e, program, options);
	if (err == CL_SUCCESS)
		kernel = clCreateKernel(program, "clwarp_native_width", &err);
	if (err != CL_SUCCESS) {
		snprintf(why, why_size, "building the sub-group width kernel: %s",
			 cl_error_name(err));
		goto out;
	}
	out = calloc(WIDTH_MAX_ITEMS * 4, sizeof(cl_uint));
	buffer = clCreateBuffer(e->context, CL_MEM_READ_WRITE, WIDTH_MAX_ITEMS * 4 * sizeof(cl_uint),
				NULL, &err);
	if (!out || err != CL_SUCCESS ||
	    (err = clSetKernelArg(kernel, 0, sizeof(buffer), &buffer)) != CL_SUCCESS) {
		snprintf(why, why_size, "sub-group width buffer: %s",
			 out ? cl_error_name(err) : "out of memory");
		goto out;
	}
	for (size_t i = 0; i < WIDTH_SHAPES; i++) {
		size_t items = shapes[i][0] * shapes[i][1];
		char a[32], b[32];

		if (items > e->info.max_work_group_size)
			continue;
		if (!width_launch(e, kernel, buffer, shapes[i], out, &w, why, why_size))
			goto out;
		if (!first) {
			first = w;
			first_shape = i;
		} else if (w != first) {
			shape_text(shapes[first_shape], a, sizeof(a));
			shape_text(shapes[i], b, sizeof(b));
			snprintf(why, why_size,
				 "the sub-group width follows the local size (%u lanes at local size %s, %u at %s): "
				 "no fixed native width to build for",
				 first, a, w, b);
			goto out;
		}
	}
	if (!first) {
		snprintf(why, why_size, "work-groups of 64 are too large for the device");
		goto out;
	}
	if (first > 64 || (first & (first - 1)) != 0) {
		snprintf(why, why_size,
			 "native sub-group width %u: a warp must be a power of two from 1 to 64 lanes", first);
		goto out;
	}
	*width = first;
	ok = true;
out:
	if (buffer)
		clReleaseMemObject(buffer);
	if (kernel)
		clReleaseKernel(kernel);
	if (program)
		clReleaseProgram(program);
	free(out);
	return ok;
}
