/* Engine life cycle: options and environment, device, context and queue. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "engine.h"

#include <errno.h>
#include <stdlib.h>

#include "algo.h"
#include "backend.h"
#include "buildmemo.h"
#include "device.h"
#include "error.h"
#include "hostmem.h"
#include "pocl_kcache.h"
#include "pocl_slot.h"
#include "program.h"
#include "staging.h"
#include "util.h"

CLWARP_EXPORT void
clwarp_engine_options_init(clwarp_engine_options *options)
{
	engine_options_init(options);
}

void
engine_options_init(clwarp_engine_options *options)
{
	if (!options)
		return;
	memset(options, 0, sizeof(*options));
	options->backend = CLWARP_BACKEND_AUTO;
	options->log_level = -1;
}

static const char *
env(const clwarp_engine_options *o, const char *name)
{
	const char *v;

	if (o->flags & CLWARP_ENGINE_NO_ENVIRONMENT)
		return NULL;
	v = getenv(name);
	return v && *v ? v : NULL;
}

/* A decimal number, digits only: no sign, no blanks (strtoull would take
 * " -1" as 2^64 - 1), no suffix. */
static clwarp_status
parse_u64(const char *name, const char *text, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (text[0] < '0' || text[0] > '9')
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s=\"%s\" is not a number (expected decimal digits only)", name, text);
	errno = 0;
	v = strtoull(text, &end, 10);
	if (*end != '\0')
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "%s=\"%s\" is not a number (expected decimal digits only)", name, text);
	if (errno == ERANGE)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s=\"%s\" is out of range", name, text);
	*out = v;
	return CLWARP_OK;
}

/* Merge explicit options with the environment; explicit ones win. */
static clwarp_status
engine_configure(clwarp_engine *e, const clwarp_engine_options *o, const char **device_spec,
		 uint64_t *cache_max)
{
	const char *v;
	uint64_t n = 0;
	int level = o->log_level;
	clwarp_status status;

	e->flags = o->flags;
	e->logger.fn = o->log_fn;
	e->logger.user_data = o->log_user_data;
	if (level < 0 && (v = env(o, "CLWARP_LOG_LEVEL"))) {
		level = clwarp_log_level_parse(v);
		if (level < 0)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "CLWARP_LOG_LEVEL=\"%s\": expected error, warning, info or debug", v);
	}
	e->logger.level = level < 0 ? CLWARP_LOG_WARNING
				    : (clwarp_log_level)(level > CLWARP_LOG_DEBUG ? CLWARP_LOG_DEBUG : level);

	*device_spec = o->device ? o->device : env(o, "CLWARP_DEVICE");

	e->requested_backend = o->backend;
	if (o->backend == CLWARP_BACKEND_AUTO && (v = env(o, "CLWARP_BACKEND"))) {
		status = backend_from_name(v, &e->requested_backend);
		if (status != CLWARP_OK)
			return set_error(status, "CLWARP_BACKEND=\"%s\": expected auto, khr, intel, nv or local", v);
	}
	e->requested_warp_size = o->warp_size;
	if (!o->warp_size && (v = env(o, "CLWARP_WARP_SIZE"))) {
		status = parse_u64("CLWARP_WARP_SIZE", v, &n);
		if (status != CLWARP_OK)
			return status;
		if (n == 0 || n > 64 || (n & (n - 1)) != 0)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "CLWARP_WARP_SIZE=\"%s\": the width must be a power of two from 1 to 64", v);
		e->requested_warp_size = (unsigned)n;
	}
	if (e->requested_warp_size) {
		unsigned w = e->requested_warp_size;

		if (w > 64 || (w & (w - 1)) != 0)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "warp size %u: it must be a power of two from 1 to 64", w);
	}

	e->prefer_native = (o->flags & CLWARP_ENGINE_NATIVE_WIDTH) != 0;
	v = env(o, "CLWARP_NATIVE_WIDTH");
	if (v && !streq(v, "0") && !streq(v, "1"))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_NATIVE_WIDTH=\"%s\": expected 0 or 1", v);
	if (v && streq(v, "1"))
		e->prefer_native = true;

	v = env(o, "CLWARP_CACHE");
	if (v && !streq(v, "0") && !streq(v, "1"))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "CLWARP_CACHE=\"%s\": expected 0 (disk cache off) or 1 (on)", v);
	if (v && streq(v, "0"))
		e->flags |= CLWARP_ENGINE_NO_DISK_CACHE;
	*cache_max = o->cache_max_bytes;
	if (!*cache_max && (v = env(o, "CLWARP_CACHE_MAX_BYTES"))) {
		status = parse_u64("CLWARP_CACHE_MAX_BYTES", v, cache_max);
		if (status != CLWARP_OK)
			return status;
		if (*cache_max == 0)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "CLWARP_CACHE_MAX_BYTES=0: the bound must be at least 1 byte "
					 "(CLWARP_CACHE=0 turns the disk cache off)");
	}
	if (!*cache_max)
		*cache_max = CLWARP_CACHE_DEFAULT_MAX_BYTES;
	return staging_configure(&e->staging, env(o, "CLWARP_STAGING"));
}

static clwarp_status
engine_alloc(const clwarp_engine_options *options, clwarp_engine **out, const char **device_spec)
{
	clwarp_engine_options defaults;
	clwarp_engine *e;
	uint64_t cache_max = 0;
	clwarp_status status;

	if (!out)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL output pointer");
	*out = NULL;
	if (!options) {
		engine_options_init(&defaults);
		options = &defaults;
	}
	if (options->flags & ~CLWARP_ENGINE_KNOWN_FLAGS)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "unknown engine flags 0x%x",
				 options->flags & ~CLWARP_ENGINE_KNOWN_FLAGS);
	if ((unsigned)options->backend > CLWARP_BACKEND_LOCAL)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "unknown backend %d", (int)options->backend);
	e = calloc(1, sizeof(*e));
	if (!e)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	pthread_mutex_init(&e->programs_lock, NULL);
	pthread_mutex_init(&e->memo_lock, NULL);
	pthread_mutex_init(&e->backend_lock, NULL);
	pthread_mutex_init(&e->algorithms_lock, NULL);
	pthread_mutex_init(&e->host_lock, NULL);
	staging_init(&e->staging);
	status = engine_configure(e, options, device_spec, &cache_max);
	if (status == CLWARP_OK && !(e->flags & CLWARP_ENGINE_NO_DISK_CACHE))
		status = diskcache_open(&e->disk, options->cache_dir, options->cache_group,
					!(e->flags & CLWARP_ENGINE_NO_ENVIRONMENT), cache_max, &e->logger);
	if (status != CLWARP_OK) {
		engine_free(e);
		return status;
	}
	*out = e;
	return CLWARP_OK;
}

static clwarp_status
engine_finish(clwarp_engine *e)
{
	clwarp_status status;
	cl_platform_id platform;
	cl_int err;

	err = clGetDeviceInfo(e->device, CL_DEVICE_PLATFORM, sizeof(platform), &platform, NULL);
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
	e->platform = platform;
	if (!e->info.name) {
		status = device_info_query(platform, e->device, 0, 0, &e->info);
		if (status != CLWARP_OK)
			return status;
	}
	if (!e->queue) {
		cl_command_queue_properties props =
			(e->flags & CLWARP_ENGINE_PROFILING) ? CL_QUEUE_PROFILING_ENABLE : 0;

		e->queue = clCreateCommandQueue(e->context, e->device, props, &err);
		if (err != CL_SUCCESS)
			return set_cl_error(err, "clCreateCommandQueue");
	}
	cl_command_queue_properties queue_props = 0;

	err = clGetCommandQueueInfo(e->queue, CL_QUEUE_PROPERTIES, sizeof(queue_props), &queue_props, NULL);
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)");
	e->queue_in_order = (queue_props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
	e->pocl_slot = pocl_slot_take(&e->info);
	e->runtime_keeps_kernels = pocl_kcache_on(&e->info);
	log_debug(&e->logger, "engine on %s (%s), disk cache %s%s", e->info.name, e->info.platform_name,
		  e->disk.dir ? e->disk.dir : "off",
		  e->disk.dir && e->runtime_keeps_kernels ? " (binaries from a second process only)" : "");
	return CLWARP_OK;
}

clwarp_status
engine_new(const clwarp_engine_options *options, clwarp_engine **out)
{
	clwarp_engine *e;
	const char *spec = NULL;
	unsigned pi = 0, di = 0;
	cl_platform_id platform;
	cl_int err;
	clwarp_status status;

	if (!out)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL output pointer");
	*out = NULL;
	status = engine_alloc(options, &e, &spec);
	if (status != CLWARP_OK)
		return status;
	status = device_select(spec, &platform, &e->device, &pi, &di);
	if (status == CLWARP_ERROR_DEVICE_NOT_FOUND && spec && !(options && options->device))
		/* Say where the spec came from: the caller may not know it is set. */
		set_error(status,
			  "CLWARP_DEVICE=\"%s\" matches no OpenCL device (use \"P:D\", \"cpu\", \"gpu\" or a name "
			  "substring; clwarp-run --list-devices lists them)",
			  spec);
	if (status == CLWARP_OK)
		status = device_info_query(platform, e->device, pi, di, &e->info);
	if (status == CLWARP_OK) {
		cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };

		e->context = clCreateContext(props, 1, &e->device, NULL, NULL, &err);
		if (err != CL_SUCCESS)
			status = set_cl_error(err, "clCreateContext");
	}
	if (status == CLWARP_OK)
		status = engine_finish(e);
	if (status != CLWARP_OK) {
		engine_free(e);
		return status;
	}
	*out = e;
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_engine_new(const clwarp_engine_options *options, clwarp_engine **out)
{
	clear_error();
	return engine_new(options, out);
}

CLWARP_EXPORT clwarp_status
clwarp_engine_new_from_cl(cl_context context, cl_device_id device, cl_command_queue queue,
			  const clwarp_engine_options *options, clwarp_engine **out)
{
	clwarp_engine *e;
	const char *spec;
	clwarp_status status;

	clear_error();
	if (!out)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL output pointer");
	*out = NULL;
	if (!context || !device)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL context or device");
	status = engine_alloc(options, &e, &spec);
	if (status != CLWARP_OK)
		return status;
	clRetainContext(context);
	e->context = context;
	e->device = device;
	if (queue) {
		clRetainCommandQueue(queue);
		e->queue = queue;
	}
	status = engine_finish(e);
	if (status != CLWARP_OK) {
		engine_free(e);
		return status;
	}
	*out = e;
	return CLWARP_OK;
}

void
engine_free(clwarp_engine *e)
{
	if (!e)
		return;
	staging_free(e);
	host_free_all(e);
	algorithms_free(e);
	buildmemo_free_all(e);
	program_free_all(e);
	if (e->queue)
		clReleaseCommandQueue(e->queue);
	if (e->context)
		clReleaseContext(e->context);
	pocl_slot_give(e->pocl_slot);
	device_info_clear(&e->info);
	diskcache_close(&e->disk);
	pthread_mutex_destroy(&e->programs_lock);
	pthread_mutex_destroy(&e->memo_lock);
	pthread_mutex_destroy(&e->backend_lock);
	pthread_mutex_destroy(&e->algorithms_lock);
	pthread_mutex_destroy(&e->host_lock);
	free(e);
}

CLWARP_EXPORT cl_context
clwarp_engine_context(const clwarp_engine *e)
{
	return e ? e->context : NULL;
}

CLWARP_EXPORT cl_device_id
clwarp_engine_device(const clwarp_engine *e)
{
	return e ? e->device : NULL;
}

CLWARP_EXPORT cl_command_queue
clwarp_engine_queue(const clwarp_engine *e)
{
	return e ? e->queue : NULL;
}

CLWARP_EXPORT const clwarp_device_info *
clwarp_engine_device_info(const clwarp_engine *e)
{
	return e ? &e->info : NULL;
}

CLWARP_EXPORT const char *
clwarp_engine_cache_dir(const clwarp_engine *e)
{
	return e ? e->disk.dir : NULL;
}

CLWARP_EXPORT void
clwarp_engine_free(clwarp_engine *e)
{
	engine_free(e);
}
