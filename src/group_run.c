/* Device groups: programs built on every device at once, kernels, split
 * launches, and data moved between the host and the devices' slices. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "group.h"

#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "error.h"
#include "kernel.h"
#include "build.h"
#include "program.h"
#include "staging.h"
#include "util.h"

/* ------------------------------------------------------------ programs */

struct build_job {
	clwarp_group *group;
	const char *path;      /* a file build, or */
	const char *source;    /* a source build */
	const char *name;
	const char *options;
	clwarp_program **programs;
	clwarp_build_info *infos;  /* each device's */
	clwarp_status status[CLWARP_GROUP_MAX_DEVICES];
};

static clwarp_status
build_one(void *ctx, size_t i)
{
	struct build_job *job = ctx;

	if (job->path)
		job->status[i] = program_build_path(job->group->engines[i], job->path, job->options,
						    &job->programs[i], &job->infos[i]);
	else
		job->status[i] = program_build_text(job->group->engines[i], job->source, job->name,
						    job->options, &job->programs[i], &job->infos[i]);
	return job->status[i];
}

/* The devices' build infos as one (clwarp_group_program_build_file). */
static void
merge_infos(const clwarp_group *g, const struct build_job *job, double start,
	    clwarp_build_info *info)
{
	const clwarp_build_info *infos = job->infos;
	struct strbuf log = { 0 };
	bool compiled = false, disk = false, failed = false;

	info->cl_error = CL_SUCCESS;
	for (size_t i = 0; i < g->count; i++) {
		const char *name = g->engines[i]->info.name;

		compiled |= infos[i].source == CLWARP_BUILD_COMPILED;
		disk |= infos[i].source == CLWARP_BUILD_DISK_HIT;
		if (!failed && job->status[i] != CLWARP_OK)
			info->cl_error = infos[i].cl_error;
		failed |= job->status[i] != CLWARP_OK;
		if (infos[i].log && *infos[i].log) {
			size_t len = strlen(infos[i].log);

			strbuf_printf(&log, "device %zu (%s):\n", i, name ? name : "?");
			strbuf_append(&log, infos[i].log, len);
			if (infos[i].log[len - 1] != '\n')
				strbuf_puts(&log, "\n");
		}
	}
	info->source = compiled ? CLWARP_BUILD_COMPILED :
		       disk ? CLWARP_BUILD_DISK_HIT : CLWARP_BUILD_MEMORY_HIT;
	info->milliseconds = now_ms() - start;
	info->log = log.len && !log.failed ? strbuf_steal(&log) : NULL;
	strbuf_free(&log);
}

static clwarp_status
build(clwarp_group *g, struct build_job *job, clwarp_group_program **out,
      clwarp_build_info *info)
{
	struct clwarp_group_program *p;
	double start = now_ms();
	clwarp_status status;

	if (info)
		memset(info, 0, sizeof(*info));
	if (!g || !out)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL group or output pointer");
	*out = NULL;
	p = calloc(1, sizeof(*p));
	job->group = g;
	job->infos = calloc(g->count, sizeof(*job->infos));
	if (!p || !job->infos || !(p->programs = calloc(g->count, sizeof(*p->programs)))) {
		free(p);
		free(job->infos);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	p->group = g;
	job->programs = p->programs;
	status = group_parallel(g, build_one, job);
	if (info)
		merge_infos(g, job, start, info);
	for (size_t i = 0; i < g->count; i++)
		build_info_clear(&job->infos[i]);
	free(job->infos);
	if (status != CLWARP_OK) {
		free(p->programs);
		free(p);
		return status;
	}
	p->next = g->programs;
	g->programs = p;
	*out = p;
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_group_program_build_file(clwarp_group *g, const char *path, const char *options,
				clwarp_group_program **program, clwarp_build_info *info)
{
	struct build_job job = { .path = path, .options = options };

	clear_error();
	if (info)
		memset(info, 0, sizeof(*info));
	if (!path)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_group_program_build_file: NULL path");
	return build(g, &job, program, info);
}

CLWARP_EXPORT clwarp_status
clwarp_group_program_build_source(clwarp_group *g, const char *source, const char *name,
				  const char *options, clwarp_group_program **program,
				  clwarp_build_info *info)
{
	struct build_job job = { .source = source, .name = name, .options = options };

	clear_error();
	if (info)
		memset(info, 0, sizeof(*info));
	if (!source)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_group_program_build_source: NULL source");
	return build(g, &job, program, info);
}

CLWARP_EXPORT clwarp_program *
clwarp_group_program_device(const clwarp_group_program *program, size_t index)
{
	return program && index < program->group->count ? program->programs[index] : NULL;
}

/* ------------------------------------------------------------ kernels */

CLWARP_EXPORT clwarp_status
clwarp_group_kernel_new(clwarp_group_program *program, const char *name,
			clwarp_group_kernel **out)
{
	clwarp_group_kernel *k;
	clwarp_group *g;
	clwarp_status status = CLWARP_OK;

	clear_error();
	if (!program || !name || !out)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_group_kernel_new: NULL program, name or output pointer");
	*out = NULL;
	g = program->group;
	k = calloc(1, sizeof(*k));
	if (!k || !(k->kernels = calloc(g->count, sizeof(*k->kernels)))) {
		free(k);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	k->group = g;
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		status = kernel_new(program->programs[i], name, &k->kernels[i]);
		if (status != CLWARP_OK)
			status = group_device_error(g, i, status);
	}
	if (status != CLWARP_OK) {
		clwarp_group_kernel_free(k);
		return status;
	}
	*out = k;
	return CLWARP_OK;
}

CLWARP_EXPORT void
clwarp_group_kernel_free(clwarp_group_kernel *k)
{
	if (!k)
		return;
	for (size_t i = 0; k->kernels && i < k->group->count; i++)
		kernel_free(k->kernels[i]);
	free(k->kernels);
	free(k);
}

CLWARP_EXPORT clwarp_kernel *
clwarp_group_kernel_device(const clwarp_group_kernel *k, size_t index)
{
	return k && index < k->group->count ? k->kernels[index] : NULL;
}

/* What the three argument setters share: one set per device, the first
 * failure named by its device. */
enum arg_kind { ARG_SCALAR, ARG_LOCAL, ARG_BUFFERS };

static clwarp_status
set_args(clwarp_group_kernel *k, unsigned index, enum arg_kind kind, size_t size,
	 const void *value, const cl_mem *buffers)
{
	clwarp_status status = CLWARP_OK;

	clear_error();
	if (!k || (kind == ARG_BUFFERS && !buffers))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL group kernel or buffers");
	/* The checks of clwarp_kernel_set_arg_scalar and _local, once. */
	if (kind == ARG_SCALAR && (!value || size == 0))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "scalar argument %u has no value", index);
	if (kind == ARG_LOCAL && size == 0)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "local argument %u of 0 bytes", index);
	for (size_t i = 0; i < k->group->count && status == CLWARP_OK; i++) {
		clwarp_kernel *dk = k->kernels[i];

		status = kind == ARG_BUFFERS ? kernel_set_arg(dk, index, sizeof(cl_mem), &buffers[i]) :
			 kernel_set_arg(dk, index, size, kind == ARG_SCALAR ? value : NULL);
		if (status != CLWARP_OK)
			status = group_device_error(k->group, i, status);
	}
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_group_kernel_set_arg_scalar(clwarp_group_kernel *k, unsigned index, size_t size,
				   const void *value)
{
	return set_args(k, index, ARG_SCALAR, size, value, NULL);
}

CLWARP_EXPORT clwarp_status
clwarp_group_kernel_set_arg_local(clwarp_group_kernel *k, unsigned index, size_t bytes)
{
	return set_args(k, index, ARG_LOCAL, bytes, NULL, NULL);
}

CLWARP_EXPORT clwarp_status
clwarp_group_kernel_set_arg_buffers(clwarp_group_kernel *k, unsigned index, const cl_mem *buffers)
{
	return set_args(k, index, ARG_BUFFERS, 0, NULL, buffers);
}

CLWARP_EXPORT clwarp_status
clwarp_group_launch(clwarp_group_kernel *k, const size_t *offsets, size_t local)
{
	static const char fn[] = "clwarp_group_launch";
	cl_event events[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	clwarp_group *g;
	clwarp_status status;

	clear_error();
	if (!k)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL kernel", fn);
	g = k->group;
	status = group_check_offsets(g, fn, offsets, "offsets");
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		size_t slice = offsets[i + 1] - offsets[i];

		if (local && slice % local != 0)
			status = set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					   "%s: device %zu's slice [%zu, %zu) holds %zu work-items, not a multiple of the local size %zu",
					   fn, i, offsets[i], offsets[i + 1], slice, local);
	}
	/* Everything is enqueued before anything is waited for: the devices
	 * run at once. */
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		size_t slice = offsets[i + 1] - offsets[i];

		if (slice == 0)
			continue;
		status = kernel_enqueue_at(k->kernels[i], 1, &offsets[i], &slice, local ? &local : NULL,
					   &events[i]);
		if (status == CLWARP_OK)
			clFlush(g->engines[i]->queue);
		else
			status = group_device_error(g, i, status);
	}
	if (status != CLWARP_OK) {
		group_wait(g, events, fn);  /* what did start still finishes */
		return status;
	}
	return group_wait(g, events, "running the kernel");
}

/* ------------------------------------------------------------ data */

clwarp_status
group_buffers_new(clwarp_group *g, cl_mem_flags flags, const size_t *bytes, cl_mem *buffers)
{
	clwarp_status status = CLWARP_OK;
	cl_int err;

	for (size_t i = 0; i < g->count; i++)
		buffers[i] = NULL;
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		buffers[i] = clCreateBuffer(g->engines[i]->context, flags, bytes[i] ? bytes[i] : 1, NULL,
					    &err);
		if (err != CL_SUCCESS) {
			buffers[i] = NULL;
			set_cl_error(err, "clCreateBuffer");
			status = group_device_error(g, i, error_cl_code() == CL_OUT_OF_HOST_MEMORY ?
								  CLWARP_ERROR_OUT_OF_MEMORY :
								  CLWARP_ERROR_TOO_LARGE);
		}
	}
	if (status != CLWARP_OK)
		group_release_buffers(g, buffers);
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_group_buffers_new(clwarp_group *g, cl_mem_flags flags, const size_t *bytes,
			 cl_mem *buffers)
{
	clear_error();
	if (!g || !bytes || !buffers)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_group_buffers_new: NULL group, sizes or buffers");
	return group_buffers_new(g, flags, bytes, buffers);
}

CLWARP_EXPORT void
clwarp_group_buffers_free(const clwarp_group *g, cl_mem *buffers)
{
	group_release_buffers(g, buffers);
}

void
group_release_buffers(const clwarp_group *g, cl_mem *buffers)
{
	for (size_t i = 0; g && buffers && i < g->count; i++) {
		if (buffers[i])
			clReleaseMemObject(buffers[i]);
		buffers[i] = NULL;
	}
}

/* Each slice's bytes, or TOO_LARGE. */
static clwarp_status
slice_bytes(const clwarp_group *g, const char *fn, const size_t *offsets, size_t element_size,
	    size_t *bytes)
{
	clwarp_status status = group_check_offsets(g, fn, offsets, "offsets");

	if (status == CLWARP_OK && element_size == 0)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: element size is 0", fn);
	if (status == CLWARP_OK && offsets[g->count] > SIZE_MAX / element_size)
		status = set_error(CLWARP_ERROR_TOO_LARGE, "%s: %zu elements of %zu bytes overflow size_t",
				   fn, offsets[g->count], element_size);
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++)
		bytes[i] = (offsets[i + 1] - offsets[i]) * element_size;
	return status;
}

struct transfer_job {
	clwarp_group *group;
	bool to_device;
	unsigned char *host;
	size_t element_size;
	const size_t *offsets, *bytes;
	const cl_mem *buffers;
	bool staged[CLWARP_GROUP_MAX_DEVICES];
};

/* One device's slice through its engine's staging chunks (src/staging.c). */
static clwarp_status
transfer_staged(void *ctx, size_t i)
{
	struct transfer_job *t = ctx;

	if (!t->staged[i])
		return CLWARP_OK;
	return staging_copy(t->group->engines[i], t->buffers[i], 0, t->bytes[i],
			    t->host + t->offsets[i] * t->element_size, t->to_device);
}

/* Copy each slice between `host` and buffers[i]: where the engine stages
 * (GPUs that pin), blocking staged copies, one thread per device; the
 * others non-blocking, all devices at once, waited for within the group's
 * time limit (a lost PoCL-R server). */
static clwarp_status
transfer(clwarp_group *g, const char *fn, bool to_device, void *host, size_t element_size,
	 const size_t *offsets, const cl_mem *buffers)
{
	cl_event events[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	size_t bytes[CLWARP_GROUP_MAX_DEVICES];
	struct transfer_job job = { .group = g, .to_device = to_device, .host = host,
				    .element_size = element_size, .offsets = offsets, .bytes = bytes,
				    .buffers = buffers };
	bool any_staged = false;
	clwarp_status status = slice_bytes(g, fn, offsets, element_size, bytes);

	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		if (bytes[i] == 0)
			continue;
		status = algo_check_buffer(fn, g->engines[i], buffers[i], "buffer", bytes[i]);
		if (status != CLWARP_OK)
			status = group_device_error(g, i, status);
	}
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		char *at = (char *)host + offsets[i] * element_size;
		cl_int err;

		if (bytes[i] == 0)
			continue;
		job.staged[i] = staging_applies(g->engines[i], bytes[i], at);
		any_staged |= job.staged[i];
		if (job.staged[i])
			continue;
		err = to_device ? clEnqueueWriteBuffer(g->engines[i]->queue, buffers[i], CL_FALSE, 0,
						       bytes[i], at, 0, NULL, &events[i]) :
				  clEnqueueReadBuffer(g->engines[i]->queue, buffers[i], CL_FALSE, 0,
						      bytes[i], at, 0, NULL, &events[i]);
		if (err != CL_SUCCESS) {
			events[i] = NULL;
			set_cl_error(err, to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
			status = group_device_error(g, i, CLWARP_ERROR_OPENCL);
		} else {
			clFlush(g->engines[i]->queue);
		}
	}
	if (status == CLWARP_OK && any_staged)
		status = group_parallel(g, transfer_staged, &job);
	clwarp_status waited = group_wait(g, events, to_device ? "writing a slice" : "reading a slice");

	return status != CLWARP_OK ? status : waited;
}

CLWARP_EXPORT clwarp_status
clwarp_group_scatter(clwarp_group *g, const void *host, cl_mem *buffers, const size_t *offsets,
		     size_t element_size)
{
	static const char fn[] = "clwarp_group_scatter";
	size_t bytes[CLWARP_GROUP_MAX_DEVICES];
	clwarp_status status;

	clear_error();
	if (!g || !buffers)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL group or buffers", fn);
	/* Nothing of the caller's is released on failure: only what this made. */
	for (size_t i = 0; i < g->count; i++)
		buffers[i] = NULL;
	status = slice_bytes(g, fn, offsets, element_size, bytes);
	if (status == CLWARP_OK && !host && offsets[g->count] > 0)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL host data", fn);
	if (status == CLWARP_OK)
		status = group_buffers_new(g, CL_MEM_READ_WRITE, bytes, buffers);
	if (status == CLWARP_OK)
		status = transfer(g, fn, true, (void *)host, element_size, offsets, buffers);
	if (status != CLWARP_OK)
		group_release_buffers(g, buffers);
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_group_gather(clwarp_group *g, const cl_mem *buffers, void *host, const size_t *offsets,
		    size_t element_size)
{
	static const char fn[] = "clwarp_group_gather";

	clear_error();
	if (!g || !buffers)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL group or buffers", fn);
	if (!host && offsets && offsets[0] != offsets[g->count])
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL host data", fn);
	return transfer(g, fn, false, host, element_size, offsets, buffers);
}
