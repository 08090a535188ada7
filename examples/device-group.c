/* Example: several devices as one: split an array, run a kernel on every slice, reduce the whole. */
/* SPDX-License-Identifier: MIT */
/*
 *     device-group [DEVICES]      (default: CLWARP_DEVICES, else every GPU, else every device)
 *
 * DEVICES is a list as clwarp_group_new() takes it, e.g. "0:0,0:1" or "all".
 * Splits N integers across the group's devices, squares every element
 * with one kernel launched on every slice at once, gathers the squares,
 * and sums them with clwarp_group_reduce. Prints each device's slice, some
 * of the squares and the sum, checks them against a host loop, and exits
 * 1 on any error or mismatch. On PoCL, POCL_DEVICES="pthread pthread"
 * makes two CPU devices of one.
 */
#include <clwarp/group.h>
#include <stdio.h>
#include <stdlib.h>

#define N 10000

static const char source[] =
	"kernel void square(global int *data)\n"
	"{\n"
	"	/* The global id counts in the whole array; the buffer holds only this device's slice. */\n"
	"	size_t i = get_global_id(0) - get_global_offset(0);\n"
	"	data[i] *= data[i];\n"
	"}\n";

static void
report(const char *what, clwarp_status status)
{
	fprintf(stderr, "device-group: %s: %s: %s\n", what, clwarp_status_name(status),
	        clwarp_last_error());
}

int
main(int argc, char **argv)
{
	static cl_int host[N], squares[N];
	size_t offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	cl_mem buffers[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	clwarp_group *group = NULL;
	clwarp_group_program *program;
	clwarp_group_kernel *kernel = NULL;
	clwarp_build_info build = { 0 };
	cl_int sum = 0, host_sum = 0;
	size_t count, d, i;
	clwarp_status status;
	int rc = 1, mismatch = 0;

	for (i = 0; i < N; i++)
		host[i] = (cl_int)(i % 101) - 50;

	status = clwarp_group_new(argc > 1 ? argv[1] : NULL, NULL, &group);
	if (status != CLWARP_OK) {
		report("group", status);
		goto out;
	}
	count = clwarp_group_size(group);
	printf("devices: %zu\n", count);

	/* Equal weights by default; clwarp_group_measure_weights() would time each device. */
	status = clwarp_group_split(group, N, 64, offsets);
	if (status == CLWARP_OK)
		status = clwarp_group_scatter(group, host, buffers, offsets, sizeof(cl_int));
	if (status != CLWARP_OK) {
		report("scatter", status);
		goto out;
	}
	for (d = 0; d < count; d++) {
		const clwarp_device_info *info = clwarp_engine_device_info(clwarp_group_engine(group, d));

		printf("device %zu: %s (%s), elements %zu to %zu\n", d, info->name,
		       info->type & CL_DEVICE_TYPE_GPU ? "GPU" : info->type & CL_DEVICE_TYPE_CPU ? "CPU" : "other",
		       offsets[d], offsets[d + 1]);
	}

	/* The program and kernel are built for each device, on each its own backend. */
	status = clwarp_group_program_build_source(group, source, "square.cl", NULL, &program, &build);
	if (status != CLWARP_OK) {
		report("build", status);
		if (build.log)
			fprintf(stderr, "build log:\n%s\n", build.log);
		goto out;
	}
	status = clwarp_group_kernel_new(program, "square", &kernel);
	if (status == CLWARP_OK)
		status = clwarp_group_kernel_set_arg_buffers(kernel, 0, buffers);
	/* Local size 0: the driver picks (the kernel uses no warp function). */
	if (status == CLWARP_OK)
		status = clwarp_group_launch(kernel, offsets, 0);
	if (status == CLWARP_OK)
		status = clwarp_group_gather(group, buffers, squares, offsets, sizeof(cl_int));
	if (status != CLWARP_OK) {
		report("square", status);
		goto out;
	}
	/* The squares summed where they are: the same as one device's reduce of the whole array. */
	status = clwarp_group_reduce(group, CLWARP_TYPE_INT, buffers, &sum, offsets, CLWARP_OP_ADD);
	if (status != CLWARP_OK) {
		report("reduce", status);
		goto out;
	}
	printf("squares:");
	for (i = 0; i < N; i++) {
		mismatch |= squares[i] != host[i] * host[i];
		host_sum += host[i] * host[i];
		if (i < 8 || i >= N - 4)
			printf(" %s%d", i == N - 4 ? "... " : "", (int)squares[i]);
	}
	printf("\nsum of squares: %d\n", (int)sum);
	mismatch |= sum != host_sum;
	if (mismatch)
		fprintf(stderr, "device-group: a result differs from the host's\n");
	else
		printf("the host agrees\n");
	rc = mismatch;
out:
	clwarp_build_info_free(&build);
	if (group)
		clwarp_group_buffers_free(group, buffers);
	clwarp_group_kernel_free(kernel);
	clwarp_group_free(group);
	return rc;
}
