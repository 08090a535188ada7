/* Kernels: argument helpers, the warp contract check, and launches. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "device.h"
#include "engine.h"
#include "error.h"
#include "kernel.h"
#include "util.h"

/* The local size of the last launch that passed the warp contract check
 * and got its scratch argument: a launch of the same shape skips both (the
 * check may query the driver; the scratch depends only on the local size). */
struct launch_shape {
	bool valid;
	bool has_local;
	unsigned dims;
	size_t local[3];
};

struct clwarp_kernel {
	clwarp_program *program;
	cl_kernel kernel;
	char *name;
	unsigned arg_count;   /* the user's arguments; the scratch argument comes after them */
	unsigned args_unset;  /* how many of them were never set */
	bool *arg_set;        /* arg_count flags */
	struct launch_shape checked;
};

/*
 * A pinned backend's program was built for W with intel_reqd_sub_group_size
 * on every kernel the source rewrite saw. Where the driver reports a
 * kernel's pin (the probe found it does: config.pin_query), a kernel at
 * another width is refused here, before it can run: one the rewrite did
 * not see (declared through a function-like macro) has no pin and the
 * driver's own width, and one with a pin of its own may keep that one.
 */
static clwarp_status
check_pinned_width(const clwarp_kernel *kernel)
{
	const clwarp_program *prog = kernel->program;
	const clwarp_engine *engine = prog->engine;
	unsigned warp = prog->config.warp_size;
	size_t got = 0;
	cl_int err;

	err = device_kernel_compile_sub_group_size(&engine->info, engine->device, kernel->kernel, &got);
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clGetKernelSubGroupInfo (checking the warp width pin)");
	if (got == warp)
		return CLWARP_OK;
	if (got == 0)
		return set_error(CLWARP_ERROR_WARP_CONTRACT,
				 "kernel %s: the driver reports no sub-group width pin on it, so it would run at the "
				 "driver's own width, not the warp width %u (%s backend); the pin goes after each "
				 "`kernel` or `__kernel` and each object-like macro defined to one: declare the kernel "
				 "that way (a function-like macro hides it)",
				 kernel->name, warp, backend_name(prog->config.backend));
	return set_error(CLWARP_ERROR_WARP_CONTRACT,
			 "kernel %s: the driver reports a sub-group width of %zu (its own intel_reqd_sub_group_size?), "
			 "but the warp width is %u (%s backend); its warp results would be wrong, so it does not run "
			 "(pin %u or none, or use a backend of width %zu)",
			 kernel->name, got, warp, backend_name(prog->config.backend), warp, got);
}

clwarp_status
kernel_new(clwarp_program *program, const char *name, clwarp_kernel **out)
{
	clwarp_kernel *k;
	cl_uint args = 0;
	cl_int err;

	if (!program || !name || !out)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL program, name or output");
	*out = NULL;
	bool known = false;
	for (size_t i = 0; i < program->kernel_count; i++)
		known = known || streq(program->kernel_names[i], name);
	if (!known) {
		struct strbuf names = { 0 };

		for (size_t i = 0; i < program->kernel_count; i++)
			strbuf_printf(&names, "%s%s", i ? ", " : "", program->kernel_names[i]);
		set_error(CLWARP_ERROR_KERNEL_NOT_FOUND, "no kernel \"%s\" in the program (it has: %s)",
			  name, names.data ? names.data : "no kernels");
		strbuf_free(&names);
		return CLWARP_ERROR_KERNEL_NOT_FOUND;
	}
	k = calloc(1, sizeof(*k));
	if (!k || !(k->name = strdup(name))) {
		free(k);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	k->program = program;
	k->kernel = clCreateKernel(program->program, name, &err);
	if (err == CL_SUCCESS)
		err = clGetKernelInfo(k->kernel, CL_KERNEL_NUM_ARGS, sizeof(args), &args, NULL);
	if (err != CL_SUCCESS) {
		kernel_free(k);
		return set_cl_error(err, "clCreateKernel");
	}
	k->arg_count = args;
	if (program->scratch_arg && args > 0)
		k->arg_count = args - 1;
	k->args_unset = k->arg_count;
	if (k->arg_count && !(k->arg_set = calloc(k->arg_count, sizeof(*k->arg_set)))) {
		kernel_free(k);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	if (program->config.pin_query && program->uses_warp) {
		clwarp_status status = check_pinned_width(k);

		if (status != CLWARP_OK) {
			kernel_free(k);
			return status;
		}
	}
	*out = k;
	return CLWARP_OK;
}

void
kernel_free(clwarp_kernel *kernel)
{
	if (!kernel)
		return;
	if (kernel->kernel)
		clReleaseKernel(kernel->kernel);
	free(kernel->arg_set);
	free(kernel->name);
	free(kernel);
}

CLWARP_EXPORT clwarp_status
clwarp_kernel_new(clwarp_program *program, const char *name, clwarp_kernel **out)
{
	clear_error();
	return kernel_new(program, name, out);
}

CLWARP_EXPORT void
clwarp_kernel_free(clwarp_kernel *kernel)
{
	kernel_free(kernel);
}

CLWARP_EXPORT cl_kernel
clwarp_kernel_cl(const clwarp_kernel *kernel)
{
	return kernel_cl(kernel);
}

cl_kernel
kernel_cl(const clwarp_kernel *kernel)
{
	return kernel ? kernel->kernel : NULL;
}

CLWARP_EXPORT unsigned
clwarp_kernel_arg_count(const clwarp_kernel *kernel)
{
	return kernel ? kernel->arg_count : 0;
}

clwarp_status
kernel_set_arg(clwarp_kernel *kernel, unsigned index, size_t size, const void *value)
{
	cl_int err;
	char what[128];

	if (!kernel)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL kernel");
	if (index >= kernel->arg_count)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "kernel %s has %u argument%s; there is no argument %u", kernel->name,
				 kernel->arg_count, kernel->arg_count == 1 ? "" : "s", index);
	err = clSetKernelArg(kernel->kernel, index, size, value);
	if (err != CL_SUCCESS) {
		snprintf(what, sizeof(what), "setting argument %u of kernel %s", index, kernel->name);
		return set_cl_error(err, what);
	}
	if (!kernel->arg_set[index]) {
		kernel->arg_set[index] = true;
		kernel->args_unset--;
	}
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_kernel_set_arg_buffer(clwarp_kernel *kernel, unsigned index, cl_mem buffer)
{
	clear_error();
	return kernel_set_arg(kernel, index, sizeof(cl_mem), &buffer);
}

CLWARP_EXPORT clwarp_status
clwarp_kernel_set_arg_scalar(clwarp_kernel *kernel, unsigned index, size_t size, const void *value)
{
	clear_error();
	if (!value || size == 0)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "scalar argument %u has no value", index);
	return kernel_set_arg(kernel, index, size, value);
}

CLWARP_EXPORT clwarp_status
clwarp_kernel_set_arg_local(clwarp_kernel *kernel, unsigned index, size_t bytes)
{
	clear_error();
	if (bytes == 0)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "local argument %u of 0 bytes", index);
	return kernel_set_arg(kernel, index, bytes, NULL);
}

/*
 * A native-width program was built for the width W the probe measured, with
 * no pin: the driver must give this kernel, at this local size, sub-groups
 * of exactly W lanes, or every warp_* result would be wrong. Refuse it
 * otherwise (no rebuild: CLWARP_WARP_SIZE is baked into the program).
 */
static clwarp_status
check_native_width(const clwarp_kernel *kernel, unsigned dims, const size_t *local)
{
	const clwarp_program *prog = kernel->program;
	const clwarp_engine *engine = prog->engine;
	size_t got = 0;
	cl_int err;

	err = device_kernel_sub_group_size(&engine->info, engine->device, kernel->kernel, dims, local,
					   &got);
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clGetKernelSubGroupInfo (checking the native warp width)");
	if (got != prog->config.warp_size)
		return set_error(CLWARP_ERROR_WARP_CONTRACT,
				 "kernel %s: the driver gives it sub-groups of %zu lanes at local size %zu x %zu x %zu, "
				 "but it was built for the device's native width %u (khr backend, no width pin); "
				 "its warp results would be wrong, so it does not run (the local backend runs it at any width)",
				 kernel->name, got, local[0], dims > 1 ? local[1] : 1, dims > 2 ? local[2] : 1,
				 prog->config.warp_size);
	return CLWARP_OK;
}

/* Check the warp contract for a launch with this local size; items = its product. */
static clwarp_status
check_local_size(const clwarp_kernel *kernel, unsigned dims, const size_t *local, size_t *items)
{
	const clwarp_program *prog = kernel->program;
	const clwarp_engine *engine = prog->engine;
	unsigned warp = prog->config.warp_size;
	size_t total = 1;

	if (dims < 1 || dims > 3)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "work dimensions must be 1, 2 or 3, not %u",
				 dims);
	*items = 0;
	if (!local) {
		if (prog->uses_warp)
			return set_error(CLWARP_ERROR_WARP_CONTRACT,
					 "kernel %s uses warp functions: give a local size that is a multiple of the warp size (%u)",
					 kernel->name, warp);
		return CLWARP_OK;
	}
	for (unsigned d = 0; d < dims; d++) {
		if (local[d] == 0)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "local size is 0 in dimension %u", d);
		if (total > SIZE_MAX / local[d])
			return set_error(CLWARP_ERROR_TOO_LARGE, "local size overflows");
		total *= local[d];
	}
	if (total > engine->info.max_work_group_size)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 "local size %zu exceeds the device's maximum work-group size %zu", total,
				 engine->info.max_work_group_size);
	if (prog->uses_warp && total % warp != 0)
		return set_error(CLWARP_ERROR_WARP_CONTRACT,
				 "kernel %s uses warp functions: its work-group size %zu is not a multiple of the warp size %u (%s backend)",
				 kernel->name, total, warp, backend_name(prog->config.backend));
	/* Where sub-groups follow dimension 0 only (the backend's probe found
	 * it), a row shorter than W ends a warp early: the warps would not be
	 * runs of the linear local id, and every warp_* result would be wrong. */
	if (prog->uses_warp && prog->config.dim0_only && local[0] % warp != 0)
		return set_error(CLWARP_ERROR_WARP_CONTRACT,
				 "kernel %s: local size x (%zu) must be a multiple of the warp width %u on this device "
				 "(local size %zu x %zu x %zu; its sub-groups follow dimension 0 only, %s backend; "
				 "the local backend has no such rule)",
				 kernel->name, local[0], warp, local[0], dims > 1 ? local[1] : 1,
				 dims > 2 ? local[2] : 1, backend_name(prog->config.backend));
	if (prog->config.native && prog->uses_warp) {
		clwarp_status status = check_native_width(kernel, dims, local);

		if (status != CLWARP_OK)
			return status;
	}
	*items = total;
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_kernel_warp_info(const clwarp_kernel *kernel, unsigned dims, const size_t *local,
			clwarp_backend *backend, unsigned *warp_size)
{
	size_t items;
	clwarp_status status;

	clear_error();
	if (!kernel)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL kernel");
	status = check_local_size(kernel, dims, local, &items);
	if (status != CLWARP_OK)
		return status;
	if (backend)
		*backend = kernel->program->config.backend;
	if (warp_size)
		*warp_size = kernel->program->config.warp_size;
	return CLWARP_OK;
}

static bool
same_shape(const struct launch_shape *shape, unsigned dims, const size_t *local)
{
	if (!shape->valid || shape->dims != dims || shape->has_local != (local != NULL))
		return false;
	for (unsigned d = 0; local && d < dims; d++)
		if (shape->local[d] != local[d])
			return false;
	return true;
}

/* The most work-groups one launch may have (clwarp.h, clwarp_kernel_launch). */
#define CLWARP_MAX_WORK_GROUPS 0xffffffffull

/* Everything a launch needs before its enqueue: the sizes checked, the warp
 * contract met and the local backend's scratch argument set. The last two
 * run once per local size. */
static clwarp_status
prepare_launch(clwarp_kernel *kernel, unsigned dims, const size_t *global, const size_t *local)
{
	const clwarp_program *prog;
	clwarp_engine *engine;
	size_t items;
	cl_int err;
	clwarp_status status;

	if (!kernel || !global)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL kernel or global size");
	prog = kernel->program;
	engine = prog->engine;
	if (!same_shape(&kernel->checked, dims, local)) {
		kernel->checked.valid = false;
		status = check_local_size(kernel, dims, local, &items);
		if (status != CLWARP_OK)
			return status;
		if (prog->scratch_arg) {
			size_t bytes = backend_scratch_bytes(&prog->config,
							     items ? items : engine->info.max_work_group_size);

			if (bytes > engine->info.local_mem_size)
				return set_error(CLWARP_ERROR_TOO_LARGE,
						 "the %s backend needs %zu bytes of local memory per work-group%s; the device has %llu",
						 backend_name(prog->config.backend), bytes,
						 prog->config.backend == CLWARP_BACKEND_LOCAL ? "" :
						 " (for __syncthreads_count/_and/_or)",
						 (unsigned long long)engine->info.local_mem_size);
			err = clSetKernelArg(kernel->kernel, kernel->arg_count, bytes, NULL);
			if (err != CL_SUCCESS)
				return set_cl_error(err, "setting the warp scratch argument");
		}
		kernel->checked = (struct launch_shape){ .valid = true, .has_local = local != NULL, .dims = dims };
		for (unsigned d = 0; local && d < dims; d++)
			kernel->checked.local[d] = local[d];
	}
	size_t work_items = 1, groups = 1;

	for (unsigned d = 0; d < dims; d++) {
		if (global[d] == 0)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "global size is 0 in dimension %u", d);
		if (local && global[d] % local[d] != 0)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "global size %zu is not a multiple of local size %zu in dimension %u",
					 global[d], local[d], d);
		if (work_items > SIZE_MAX / global[d])
			return set_error(CLWARP_ERROR_TOO_LARGE,
					 "kernel %s: the global size (%zu in dimension %u) makes more work-items than size_t holds",
					 kernel->name, global[d], d);
		work_items *= global[d];
		groups *= local ? global[d] / local[d] : global[d];
	}
	/* Drivers count work-groups in 32 bits: PoCL 3.1 aborts on more, or
	 * wraps the count to 0 and runs nothing. Without a local size the
	 * driver's grouping is unknown: every work-item counts as a group. */
	if (groups > CLWARP_MAX_WORK_GROUPS)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 local ? "kernel %s: %zu work-groups in one launch; at most %llu (give a larger local size)"
				       : "kernel %s: %zu work-items without a local size; at most %llu (give a local size)",
				 kernel->name, groups, (unsigned long long)CLWARP_MAX_WORK_GROUPS);
	/* Refused here, before the driver: NVIDIA's returns CL_INVALID_KERNEL_ARGS
	 * too, but such a launch breaks the enqueues that other threads make at
	 * the same moment (contrib/driver-bugs/nvidia-driver/README.md). */
	if (kernel->args_unset) {
		unsigned i = 0;
		char what[200];

		while (kernel->arg_set[i])
			i++;
		snprintf(what, sizeof(what), "launching kernel %s: argument %u (of %u) was never set",
			 kernel->name, i, kernel->arg_count);
		return set_cl_error(CL_INVALID_KERNEL_ARGS, what);
	}
	return CLWARP_OK;
}

static clwarp_status
enqueue_at(clwarp_kernel *kernel, unsigned dims, const size_t *offset, const size_t *global,
	   const size_t *local, cl_event *event)
{
	char what[160];
	cl_int err = clEnqueueNDRangeKernel(kernel->program->engine->queue, kernel->kernel, dims,
					    offset, global, local, 0, NULL, event);

	if (err != CL_SUCCESS) {
		snprintf(what, sizeof(what), "launching kernel %s", kernel->name);
		return set_cl_error(err, what);
	}
	return CLWARP_OK;
}

clwarp_status
kernel_enqueue_at(clwarp_kernel *kernel, unsigned dims, const size_t *offset,
		  const size_t *global, const size_t *local, cl_event *event)
{
	clwarp_status status = prepare_launch(kernel, dims, global, local);

	if (status != CLWARP_OK)
		return status;
	return enqueue_at(kernel, dims, offset, global, local, event);
}

CLWARP_EXPORT clwarp_status
clwarp_kernel_enqueue(clwarp_kernel *kernel, unsigned dims, const size_t *global,
		      const size_t *local)
{
	clear_error();
	return kernel_enqueue_at(kernel, dims, NULL, global, local, NULL);
}

clwarp_status
kernel_launch(clwarp_kernel *kernel, unsigned dims, const size_t *global, const size_t *local,
	      cl_event *event)
{
	const clwarp_engine *engine;
	cl_event done = NULL;
	cl_int err;
	clwarp_status status;
	char what[160];

	status = prepare_launch(kernel, dims, global, local);
	if (status != CLWARP_OK)
		return status;
	engine = kernel->program->engine;
	if (event)
		return enqueue_at(kernel, dims, NULL, global, local, event);
	/* Blocking. On an in-order queue everything before the kernel finishes
	 * first anyway, so clFinish waits for exactly as much as an event
	 * would, without creating one. */
	if (engine->queue_in_order) {
		status = enqueue_at(kernel, dims, NULL, global, local, NULL);
		if (status != CLWARP_OK)
			return status;
		err = clFinish(engine->queue);
	} else {
		status = enqueue_at(kernel, dims, NULL, global, local, &done);
		if (status != CLWARP_OK)
			return status;
		err = clWaitForEvents(1, &done);
		clReleaseEvent(done);
	}
	if (err != CL_SUCCESS) {
		snprintf(what, sizeof(what), "running kernel %s", kernel->name);
		return set_cl_error(err, what);
	}
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_kernel_launch(clwarp_kernel *kernel, unsigned dims, const size_t *global,
		     const size_t *local, cl_event *event)
{
	clear_error();
	return kernel_launch(kernel, dims, global, local, event);
}
