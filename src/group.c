/* Device groups: one engine per device, the weights and the split of work. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "group.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo.h"
#include "backend.h"
#include "error.h"
#include "hostmem.h"
#include "util.h"

/* ------------------------------------------------------------ errors and threads */

clwarp_status
group_device_error(const clwarp_group *g, size_t i, clwarp_status status)
{
	char *why = xstrdup(error_message());
	const clwarp_device_info *info = &g->engines[i]->info;

	set_error(status, "device %zu (%u:%u %s): %s", i, g->ids[i].platform, g->ids[i].device,
		  info->name ? info->name : "?", why ? why : "");
	free(why);
	return status;
}

struct worker {
	clwarp_group *group;
	size_t index;
	clwarp_status (*fn)(void *ctx, size_t index);
	void *ctx;
	clwarp_status status;
	cl_int cl_error;
	char *message;   /* the worker thread's error, copied out of its thread-local state */
};

static void *
worker_main(void *arg)
{
	struct worker *w = arg;

	clear_error();
	w->status = w->fn(w->ctx, w->index);
	if (w->status != CLWARP_OK) {
		w->cl_error = error_cl_code();
		w->message = xstrdup(error_message());
	}
	return NULL;
}

clwarp_status
group_parallel(clwarp_group *g, clwarp_status (*fn)(void *ctx, size_t index), void *ctx)
{
	struct worker *workers;
	pthread_t *threads;
	bool *started;
	clwarp_status status = CLWARP_OK;

	if (g->count == 1) {
		status = fn(ctx, 0);
		return status == CLWARP_OK ? status : group_device_error(g, 0, status);
	}
	workers = calloc(g->count, sizeof(*workers));
	threads = calloc(g->count, sizeof(*threads));
	started = calloc(g->count, sizeof(*started));
	if (!workers || !threads || !started) {
		free(workers);
		free(threads);
		free(started);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	for (size_t i = 0; i < g->count; i++) {
		workers[i] = (struct worker){ .group = g, .index = i, .fn = fn, .ctx = ctx };
		started[i] = pthread_create(&threads[i], NULL, worker_main, &workers[i]) == 0;
		if (!started[i])  /* no thread to be had: do it here */
			worker_main(&workers[i]);
	}
	for (size_t i = 0; i < g->count; i++)
		if (started[i])
			pthread_join(threads[i], NULL);
	for (size_t i = 0; i < g->count; i++) {
		if (workers[i].status != CLWARP_OK && status == CLWARP_OK) {
			set_error_state(workers[i].status, workers[i].cl_error,
					workers[i].message ? workers[i].message : "");
			status = group_device_error(g, i, workers[i].status);
		}
		free(workers[i].message);
	}
	free(workers);
	free(threads);
	free(started);
	return status;
}

/* An event's status, or a negative error; CL_QUEUED etc. while it runs. */
static cl_int
event_status(cl_event event)
{
	cl_int run = CL_COMPLETE;
	cl_int err = clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(run), &run, NULL);

	return err != CL_SUCCESS ? err : run;
}

/* Waits for one event until `deadline` (now_ms() time; 0: none): its
 * status, or 1 (CL_QUEUED would be 3) when time ran out. Without a
 * deadline clWaitForEvents sleeps in the driver; with one, the status is
 * polled (OpenCL has no wait with a time limit). */
static cl_int
wait_event(cl_event event, double deadline)
{
	struct timespec pause = { 0, 200000 };   /* 0.2 ms */
	cl_int run;

	if (deadline <= 0.0) {
		cl_int err = clWaitForEvents(1, &event);

		return err != CL_SUCCESS ? err : event_status(event);
	}
	while ((run = event_status(event)) > CL_COMPLETE) {
		if (now_ms() >= deadline)
			return 1;
		nanosleep(&pause, NULL);
	}
	return run;
}

clwarp_status
group_wait(const clwarp_group *g, cl_event *events, const char *what)
{
	double deadline = g->timeout > 0.0 ? now_ms() + g->timeout * 1000.0 : 0.0;
	clwarp_status status = CLWARP_OK;

	for (size_t i = 0; i < g->count; i++) {
		if (!events[i])
			continue;
		cl_int run = wait_event(events[i], deadline);

		if (run == 1 && status == CLWARP_OK) {
			set_error(CLWARP_ERROR_TIMEOUT,
				  "%s: not finished after the group's time limit of %g s (is the device, or its server, gone?); do not use this engine again",
				  what, g->timeout);
			status = group_device_error(g, i, CLWARP_ERROR_TIMEOUT);
		} else if (run < 0 && status == CLWARP_OK) {
			set_cl_error(run, what);
			status = group_device_error(g, i, run == CL_OUT_OF_HOST_MEMORY ?
							   CLWARP_ERROR_OUT_OF_MEMORY : CLWARP_ERROR_OPENCL);
		}
		clReleaseEvent(events[i]);
		events[i] = NULL;
	}
	return status;
}

clwarp_status
group_check_offsets(const clwarp_group *g, const char *fn, const size_t *offsets, const char *what)
{
	if (!offsets)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: NULL %s", fn, what);
	if (offsets[0] != 0)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "%s: %s[0] is %zu; it must be 0", fn,
				 what, offsets[0]);
	for (size_t i = 0; i < g->count; i++)
		if (offsets[i + 1] < offsets[i])
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "%s: %s[%zu] = %zu is below %s[%zu] = %zu; offsets must not decrease",
					 fn, what, i + 1, offsets[i + 1], what, i, offsets[i]);
	return CLWARP_OK;
}

/* ------------------------------------------------------------ host staging */

static void
group_staging_free(clwarp_group *g)
{
	if (g->staging) {
		host_unpin(g->engines[0], g->staging, g->staging_host);
		clFinish(g->engines[0]->queue);
	} else {
		free(g->staging_host);
	}
	g->staging = NULL;
	g->staging_host = NULL;
	g->staging_bytes = 0;
}

void *
group_staging(clwarp_group *g, size_t bytes)
{
	if (bytes <= g->staging_bytes)
		return g->staging_host;
	group_staging_free(g);
	/* Pinned where that is faster (src/hostmem.c); where pinning fails
	 * (too much, say), plain memory still works. */
	if (host_pins_memory(g->engines[0]))
		host_pin(g->engines[0], bytes, &g->staging, &g->staging_host);
	if (!g->staging_host)
		g->staging_host = malloc(bytes);
	if (g->staging_host)
		g->staging_bytes = bytes;
	return g->staging_host;
}

/* ------------------------------------------------------------ creation */

/* Add every device `item` names to the group's list; a device named twice
 * is an error. */
static clwarp_status
add_item(clwarp_group *g, const char *item)
{
	struct device_index_pair found[CLWARP_GROUP_MAX_DEVICES];
	size_t n = 0;
	clwarp_status status = device_match_all(item, found, ARRAY_LENGTH(found), &n);

	if (status != CLWARP_OK)
		return status;
	if (n == 0)
		return set_error(CLWARP_ERROR_DEVICE_NOT_FOUND,
				 "no OpenCL device matches \"%s\" (use \"P:D\", \"P:*\", \"all\", \"cpu\", \"gpu\" or a name substring; clwarp-run --list-devices lists them)",
				 item);
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < g->count; i++)
			if (g->ids[i].platform == found[k].platform && g->ids[i].device == found[k].device)
				return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
						 "device %u:%u is named twice (again by \"%s\")",
						 found[k].platform, found[k].device, item);
		if (g->count == CLWARP_GROUP_MAX_DEVICES)
			return set_error(CLWARP_ERROR_TOO_LARGE, "more than %d devices in one group",
					 CLWARP_GROUP_MAX_DEVICES);
		g->ids[g->count++] = found[k];
	}
	return CLWARP_OK;
}

static clwarp_status
parse_devices(clwarp_group *g, const char *devices)
{
	char *list = strdup(devices), *save = NULL;
	clwarp_status status = CLWARP_OK;

	if (!list)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	for (char *item = strtok_r(list, ",", &save); item && status == CLWARP_OK;
	     item = strtok_r(NULL, ",", &save)) {
		char *end = item + strlen(item);

		while (*item == ' ' || *item == '\t')
			item++;
		while (end > item && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (*item)
			status = add_item(g, item);
	}
	if (status == CLWARP_OK && g->count == 0)
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT, "device list \"%s\" names no device",
				   devices);
	free(list);
	return status;
}

/* CLWARP_GROUP_TIMEOUT: seconds, decimal digits with an optional
 * fraction ("2.5"); empty is none. */
static clwarp_status
timeout_from_env(clwarp_group *g)
{
	const char *v = getenv("CLWARP_GROUP_TIMEOUT");
	char *end;
	double seconds;

	if (!v || !*v)
		return CLWARP_OK;
	seconds = strtod(v, &end);
	if (!isdigit((unsigned char)v[0]) || *end || !(seconds >= 0.0) || !isfinite(seconds) ||
	    seconds > 1e9)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "CLWARP_GROUP_TIMEOUT=\"%s\": expected seconds, e.g. 30 or 2.5 (0: no limit)", v);
	g->timeout = seconds;
	return CLWARP_OK;
}

static clwarp_status
resolve_backend(void *ctx, size_t i)
{
	const struct backend_config *config;
	clwarp_group *g = ctx;

	return backend_resolve(g->engines[i], &config);
}

CLWARP_EXPORT clwarp_status
clwarp_group_new(const char *devices, const clwarp_engine_options *options, clwarp_group **out)
{
	clwarp_engine_options opts;
	clwarp_group *g;
	clwarp_status status;

	clear_error();
	if (!out)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_new: NULL output pointer");
	*out = NULL;
	if (options && options->device)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_group_new: options->device must be NULL; name the devices in the device list");
	if (options)
		opts = *options;
	else
		engine_options_init(&opts);
	if (!devices || !*devices) {
		const char *env = (opts.flags & CLWARP_ENGINE_NO_ENVIRONMENT) ? NULL : getenv("CLWARP_DEVICES");
		struct device_index_pair gpu;
		size_t gpus = 0;

		if (env && *env) {
			devices = env;
		} else {
			/* Too many GPUs is fine here: only "any at all" counts. */
			device_match_all("gpu", &gpu, 1, &gpus);
			clear_error();
			devices = gpus ? "gpu" : "all";
		}
	}
	g = calloc(1, sizeof(*g));
	if (!g || !(g->ids = calloc(CLWARP_GROUP_MAX_DEVICES, sizeof(*g->ids)))) {
		free(g);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	status = parse_devices(g, devices);
	if (status != CLWARP_OK && devices == getenv("CLWARP_DEVICES")) {
		/* Say where the list came from: the caller may not know it is set. */
		char *why = xstrdup(error_message());

		set_error(status, "CLWARP_DEVICES=\"%s\": %s", devices, why ? why : "");
		free(why);
	}
	if (status == CLWARP_OK) {
		g->engines = calloc(g->count, sizeof(*g->engines));
		g->weights = calloc(g->count, sizeof(*g->weights));
		g->scratch = calloc(g->count, sizeof(*g->scratch));
		if (!g->engines || !g->weights || !g->scratch)
			status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	for (size_t i = 0; status == CLWARP_OK && i < g->count; i++) {
		char spec[32];

		snprintf(spec, sizeof(spec), "%u:%u", g->ids[i].platform, g->ids[i].device);
		opts.device = spec;
		g->weights[i] = 1.0;
		status = engine_new(&opts, &g->engines[i]);
		if (status != CLWARP_OK) {
			char *why = xstrdup(error_message());

			set_error(status, "device %zu (%s): %s", i, spec, why ? why : "");
			free(why);
		}
	}
	if (status == CLWARP_OK && !(opts.flags & CLWARP_ENGINE_NO_ENVIRONMENT))
		status = timeout_from_env(g);
	if (status == CLWARP_OK)
		status = group_parallel(g, resolve_backend, g);
	if (status != CLWARP_OK) {
		clwarp_group_free(g);
		return status;
	}
	*out = g;
	return CLWARP_OK;
}

CLWARP_EXPORT void
clwarp_group_free(clwarp_group *g)
{
	if (!g)
		return;
	while (g->programs) {
		struct clwarp_group_program *next = g->programs->next;

		free(g->programs->programs);
		free(g->programs);
		g->programs = next;
	}
	for (size_t i = 0; g->scratch && i < g->count; i++)
		if (g->scratch[i])
			clReleaseMemObject(g->scratch[i]);
	group_staging_free(g);
	for (size_t i = 0; g->engines && i < g->count; i++)
		engine_free(g->engines[i]);
	free(g->scratch);
	free(g->engines);
	free(g->weights);
	free(g->ids);
	free(g);
}

CLWARP_EXPORT size_t
clwarp_group_size(const clwarp_group *g)
{
	return g ? g->count : 0;
}

CLWARP_EXPORT clwarp_engine *
clwarp_group_engine(const clwarp_group *g, size_t index)
{
	return g && index < g->count ? g->engines[index] : NULL;
}

/* ------------------------------------------------------------ weights and split */

CLWARP_EXPORT clwarp_status
clwarp_group_set_timeout(clwarp_group *g, double seconds)
{
	clear_error();
	if (!g)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_set_timeout: NULL group");
	if (!(seconds >= 0.0) || !isfinite(seconds))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_group_set_timeout: %g s; the time limit must be 0 (none) or positive",
				 seconds);
	g->timeout = seconds;
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_group_set_weights(clwarp_group *g, const double *weights)
{
	clear_error();
	if (!g || !weights)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_set_weights: NULL group or weights");
	for (size_t i = 0; i < g->count; i++)
		if (!(weights[i] > 0.0) || !isfinite(weights[i]))
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "clwarp_group_set_weights: weight %zu is %g; weights must be positive and finite",
					 i, weights[i]);
	memcpy(g->weights, weights, g->count * sizeof(*weights));
	return CLWARP_OK;
}

/* Seconds of the fastest of three reduces of `n` floats on device i. */
static clwarp_status
time_reduce(clwarp_group *g, size_t i, size_t n, double *seconds)
{
	clwarp_engine *e = g->engines[i];
	cl_mem in, result = NULL;
	cl_float zero = 0.0f;
	cl_int err;
	clwarp_status status = CLWARP_OK;

	in = clCreateBuffer(e->context, CL_MEM_READ_WRITE, n * sizeof(cl_float), NULL, &err);
	if (err == CL_SUCCESS)
		result = clCreateBuffer(e->context, CL_MEM_READ_WRITE, sizeof(cl_float), NULL, &err);
	if (err == CL_SUCCESS)
		err = clEnqueueFillBuffer(e->queue, in, &zero, sizeof(zero), 0, n * sizeof(cl_float), 0,
					  NULL, NULL);
	if (err != CL_SUCCESS)
		status = set_cl_error(err, "clwarp_group_measure_weights: the test buffer");
	*seconds = INFINITY;
	/* The first run builds the kernel and warms the device up. */
	for (int run = 0; run < 4 && status == CLWARP_OK; run++) {
		double start = now_ms();

		status = algo_reduce("clwarp_group_measure_weights", e, CLWARP_TYPE_FLOAT, CLWARP_OP_ADD,
				     in, n, result, NULL);
		double t = (now_ms() - start) / 1000.0;

		if (run > 0 && t < *seconds)
			*seconds = t;
	}
	if (in)
		clReleaseMemObject(in);
	if (result)
		clReleaseMemObject(result);
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_group_measure_weights(clwarp_group *g, size_t n, double *weights)
{
	double *w;
	clwarp_status status = CLWARP_OK;

	clear_error();
	if (!g)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_measure_weights: NULL group");
	if (n == 0)
		n = (size_t)1 << 22;
	if (n > SIZE_MAX / sizeof(cl_float))
		return set_error(CLWARP_ERROR_TOO_LARGE, "clwarp_group_measure_weights: n = %zu is too large", n);
	w = calloc(g->count, sizeof(*w));
	if (!w)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	/* One device at a time: devices that share the host (CPU devices, or
	 * one PCIe link) would otherwise measure each other. */
	for (size_t i = 0; i < g->count && status == CLWARP_OK; i++) {
		double seconds;

		status = time_reduce(g, i, n, &seconds);
		if (status != CLWARP_OK)
			status = group_device_error(g, i, status);
		else
			w[i] = (double)n / (seconds > 1e-9 ? seconds : 1e-9);
	}
	if (status == CLWARP_OK) {
		memcpy(g->weights, w, g->count * sizeof(*w));
		if (weights)
			memcpy(weights, w, g->count * sizeof(*w));
	}
	free(w);
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_group_split(const clwarp_group *g, size_t n, size_t granule, size_t *offsets)
{
	double total = 0.0, sum = 0.0;

	clear_error();
	if (!g || !offsets)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_split: NULL group or offsets");
	if (granule == 0)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_group_split: granule is 0");
	for (size_t i = 0; i < g->count; i++)
		total += g->weights[i];
	offsets[0] = 0;
	for (size_t i = 0; i + 1 < g->count; i++) {
		sum += g->weights[i];
		/* The nearest multiple of the granule to the weights' share. */
		long double share = (long double)n * sum / total;
		size_t b = (size_t)((share + granule / 2.0L) / granule) * granule;

		if (b < offsets[i])
			b = offsets[i];
		if (b > n)
			b = n;
		offsets[i + 1] = b;
	}
	offsets[g->count] = n;
	return CLWARP_OK;
}
