/* Warp backends: choosing one per device. Each candidate's probe runs
 * once per device and driver; its verdict is cached on disk. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>

#include "device.h"
#include "error.h"
#include "kernels_embedded.h"
#include "probe.h"
#include "sha256.h"

/* The local backend's default width: CUDA's warp, so ported code keeps its meaning. */
#define DEFAULT_LOCAL_WARP_SIZE 32u

/* Probe verdicts are cached on disk under a key of the device and the candidate. */
static void
verdict_key(const clwarp_engine *e, const struct backend_config *c, uint8_t key[32])
{
	struct sha256 h;
	char text[128];

	sha256_init(&h);
	/* "verdict 2": verdicts carry the probe's findings (candidate_works). */
	sha256_update_str(&h, "clwarp probe verdict 2 " CLWARP_VERSION);
	sha256_update_str(&h, e->info.platform_name);
	sha256_update_str(&h, e->info.platform_version);
	sha256_update_str(&h, e->info.name);
	sha256_update_str(&h, e->info.driver_version);
	sha256_update_str(&h, e->info.device_version);
	sha256_update_str(&h, e->info.opencl_c_version);
	/* The probe and backend sources themselves: an edit re-probes. */
	sha256_update_str(&h, clwarp_kernel_warp_probe);
	sha256_update_str(&h, clwarp_kernel_warp_common);
	sha256_update_str(&h, clwarp_kernel_warp_generic);
	sha256_update_str(&h, clwarp_kernel_warp_types);
	sha256_update_str(&h, clwarp_kernel_warp_sort);
	sha256_update_str(&h, clwarp_kernel_warp_local);
	sha256_update_str(&h, clwarp_kernel_warp_khr);
	sha256_update_str(&h, clwarp_kernel_warp_intel);
	sha256_update_str(&h, clwarp_kernel_warp_nv);
	snprintf(text, sizeof(text), "%d %u %u %u %d %d %d %d %d", (int)c->backend, c->warp_size,
		 c->features, c->nv_sm, (int)c->fp64, (int)c->fp16, (int)c->native, (int)c->cl_std_30,
		 (int)c->barrier_warps);
	sha256_update_str(&h, text);
	sha256_final(&h, key);
}

/*
 * Does the candidate work here? Reads a cached verdict or runs the probe.
 * A verdict is '0' (fails) followed by the reason, or '1' (works)
 * followed by the probe's findings: 'd' for c->dim0_only, 'q' for
 * c->pin_query.
 */
static bool
candidate_works(clwarp_engine *e, struct backend_config *c, char *why, size_t why_size)
{
	uint8_t key[32];
	void *payload = NULL;
	size_t size = 0;
	struct probe_findings found = { 0 };
	bool ok;

	verdict_key(e, c, key);
	if (diskcache_load(&e->disk, key, "probe", &payload, &size)) {
		const char *v = payload;

		ok = size >= 1 && v[0] == '1';
		c->dim0_only = ok && memchr(v + 1, 'd', size - 1) != NULL;
		c->pin_query = ok && memchr(v + 1, 'q', size - 1) != NULL;
		snprintf(why, why_size, "%.*s", size > 1 && !ok ? (int)(size - 1) : 0,
			 size > 1 && !ok ? v + 1 : "");
		free(payload);
		log_debug(&e->logger, "%s backend (width %u): cached verdict %s%s%s", backend_name(c->backend),
			  c->warp_size, ok ? "works" : "fails",
			  c->dim0_only ? ", sub-groups along dimension 0 only" : "",
			  c->pin_query ? ", pins checked per kernel" : "");
		return ok;
	}
	why[0] = '\0';
	ok = probe_run(e, c, &found, why, why_size);
	c->dim0_only = ok && found.dim0_only;
	c->pin_query = ok && found.pin_query;
	log_info(&e->logger, "%s backend (width %u, features 0x%x): probe %s%s%s%s%s",
		 backend_name(c->backend), c->warp_size, c->features, ok ? "passed" : "failed",
		 ok ? "" : ": ", ok ? "" : why,
		 c->dim0_only ? "; sub-groups along dimension 0 only (x extents must be multiples of the width)" : "",
		 c->pin_query ? "; the driver reports each kernel's width pin" : "");
	{
		struct strbuf v = { 0 };

		if (ok)
			strbuf_printf(&v, "1%s%s", c->dim0_only ? "d" : "", c->pin_query ? "q" : "");
		else
			strbuf_printf(&v, "0%s", why);
		if (!v.failed)
			diskcache_store(&e->disk, key, "probe", v.data, v.len);
		strbuf_free(&v);
	}
	return ok;
}

/* The khr backend's native width: a cached measurement, or probe_native_width(). */
static bool
native_width(clwarp_engine *e, struct backend_config *c, char *why, size_t why_size)
{
	const clwarp_device_info *d = &e->info;
	struct sha256 h;
	uint8_t key[32];
	void *payload = NULL;
	size_t size = 0;
	unsigned w = 0;
	bool ok;

	sha256_init(&h);
	sha256_update_str(&h, "clwarp native width " CLWARP_VERSION);
	sha256_update_str(&h, d->platform_name);
	sha256_update_str(&h, d->platform_version);
	sha256_update_str(&h, d->name);
	sha256_update_str(&h, d->driver_version);
	sha256_update_str(&h, d->device_version);
	sha256_update_str(&h, d->opencl_c_version);
	sha256_update_str(&h, probe_native_width_source());
	sha256_update_str(&h, c->cl_std_30 ? "cl3" : "");
	sha256_final(&h, key);
	if (diskcache_load(&e->disk, key, "probe", &payload, &size)) {
		/* "W" or "0" followed by the reason */
		char text[256];

		snprintf(text, sizeof(text), "%.*s", (int)(size < sizeof(text) ? size : sizeof(text) - 1),
			 (const char *)payload);
		free(payload);
		ok = sscanf(text, "%u", &w) == 1 && w > 0;
		if (!ok)
			snprintf(why, why_size, "%s", text[0] ? text + 1 : "");
		log_debug(&e->logger, "khr backend: cached native width %s", text);
	} else {
		why[0] = '\0';
		ok = probe_native_width(e, c->cl_std_30, &w, why, why_size);
		log_info(&e->logger, "khr backend: native sub-group width %u%s%s", ok ? w : 0,
			 ok ? "" : ": ", ok ? "" : why);
		{
			struct strbuf v = { 0 };

			if (ok)
				strbuf_printf(&v, "%u", w);
			else
				strbuf_printf(&v, "0%s", why);
			if (!v.failed)
				diskcache_store(&e->disk, key, "probe", v.data, v.len);
			strbuf_free(&v);
		}
	}
	if (ok)
		c->warp_size = w;
	return ok;
}

/* Try a khr or intel candidate with the advertised extensions, then
 * without each in turn, then without any: an extension is used only where
 * the probe passes with it. */
static bool
features_work(clwarp_engine *e, struct backend_config *c, char *why, size_t why_size)
{
	unsigned advertised = c->features;

	if (candidate_works(e, c, why, why_size))
		return true;
	for (unsigned bit = 1; bit <= FEATURE_SG_EXTENDED_TYPES; bit <<= 1) {
		if (!(advertised & bit))
			continue;
		c->features = advertised & ~bit;
		if (candidate_works(e, c, why, why_size))
			return true;
	}
	c->features = 0;
	return advertised && candidate_works(e, c, why, why_size);
}

/* Where the core sub_group_scan_* built-ins lose to generic.cl's shuffles:
 * Intel's CPU runtime, 1.6-4.6 times slower over add, min and max of
 * 32- and 64-bit types (bench/native-collectives.sh cases 16, 19, 21, 22,
 * docs/design/cpu-sort.md, "Intel's CPU runtime"). Its sub_group_reduce_* were as fast or faster,
 * and so were PoCL 6.0's scans (7 times the generic path) and Mesa
 * rusticl's 64-bit ones, so this stays a fact about one implementation. */
static bool
slow_native_scans(const clwarp_device_info *d)
{
	return (d->type & CL_DEVICE_TYPE_CPU) && strcmp(d->platform_name, "Intel(R) OpenCL") == 0;
}

/* Fill a candidate for `backend`; false when the device has nothing of the sort. */
static bool
candidate_for(const clwarp_engine *e, clwarp_backend backend, struct backend_config *c,
	      char *why, size_t why_size)
{
	const clwarp_device_info *d = &e->info;
	const char *ext = d->extensions;

	memset(c, 0, sizeof(*c));
	c->backend = backend;
	c->fp64 = d->has_fp64;
	c->fp16 = word_in_list(ext, "cl_khr_fp16");
	switch (backend) {
	case CLWARP_BACKEND_NV:
		if (d->nv_warp_size != 32) {
			snprintf(why, why_size, "not an NVIDIA device (no CL_DEVICE_WARP_SIZE_NV of 32)");
			return false;
		}
		c->warp_size = 32;
		c->nv_sm = device_nv_sm(e->device);
		return true;
	case CLWARP_BACKEND_INTEL:
		if (!word_in_list(ext, "cl_intel_subgroups")) {
			snprintf(why, why_size, "the device does not advertise cl_intel_subgroups");
			return false;
		}
		if (!word_in_list(ext, "cl_intel_required_subgroup_size")) {
			snprintf(why, why_size, "no cl_intel_required_subgroup_size to pin the width");
			return false;
		}
		c->warp_size = 16;
		c->generic_scans = slow_native_scans(d);
		if (word_in_list(ext, "cl_khr_subgroup_non_uniform_arithmetic"))
			c->features |= FEATURE_SG_NON_UNIFORM_ARITH;
		if (word_in_list(ext, "cl_khr_subgroup_extended_types"))
			c->features |= FEATURE_SG_EXTENDED_TYPES;
		return true;
	case CLWARP_BACKEND_KHR:
		if (!d->has_subgroups) {
			snprintf(why, why_size, "the device has no sub-groups (cl_khr_subgroups)");
			return false;
		}
		/* Sub-groups as an OpenCL C 3.0 feature only: the built-ins need -cl-std=CL3.0. */
		c->cl_std_30 = !word_in_list(ext, "cl_khr_subgroups") &&
			       strncmp(d->device_version, "OpenCL 3", 8) == 0;
		/* Pinned to 32 where cl_intel_required_subgroup_size allows it;
		 * else (or when asked) the device's own width, which
		 * native_width() measures and every launch checks. */
		if (word_in_list(ext, "cl_intel_required_subgroup_size") && !e->prefer_native)
			c->warp_size = 32;
		else
			c->native = true;
		c->barrier_warps = strncmp(d->platform_name, "Portable Computing Language", 27) == 0;
		c->generic_scans = slow_native_scans(d);
		if (word_in_list(ext, "cl_khr_subgroup_shuffle"))
			c->features |= FEATURE_KHR_SHUFFLE;
		if (word_in_list(ext, "cl_khr_subgroup_shuffle_relative"))
			c->features |= FEATURE_KHR_SHUFFLE_RELATIVE;
		if (word_in_list(ext, "cl_khr_subgroup_ballot"))
			c->features |= FEATURE_KHR_BALLOT;
		if (word_in_list(ext, "cl_khr_subgroup_non_uniform_arithmetic"))
			c->features |= FEATURE_SG_NON_UNIFORM_ARITH;
		if (word_in_list(ext, "cl_khr_subgroup_extended_types"))
			c->features |= FEATURE_SG_EXTENDED_TYPES;
		return true;
	case CLWARP_BACKEND_LOCAL:
		c->warp_size = e->requested_warp_size ? e->requested_warp_size : DEFAULT_LOCAL_WARP_SIZE;
		return true;
	case CLWARP_BACKEND_AUTO:
		break;
	}
	return false;
}

static bool
try_backend(clwarp_engine *e, clwarp_backend backend, char *why, size_t why_size)
{
	struct backend_config c;

	if (!candidate_for(e, backend, &c, why, why_size))
		return false;
	if (c.native) {
		int n = snprintf(why, why_size, "no pinned sub-group width (%s) and no native one: ",
				 e->prefer_native ? "the native width was asked for"
						  : "no cl_intel_required_subgroup_size");

		if (n < 0 || (size_t)n >= why_size)
			n = 0;
		if (!native_width(e, &c, why + n, why_size - (size_t)n))
			return false;
	}
	/* Local memory is the last resort: with nothing left to fall back on, a
	 * probe would only add a slow first build. */
	if (backend == CLWARP_BACKEND_KHR || backend == CLWARP_BACKEND_INTEL
	    ? !features_work(e, &c, why, why_size)
	    : backend != CLWARP_BACKEND_LOCAL && !candidate_works(e, &c, why, why_size))
		return false;
	e->backend = c;
	return true;
}

static clwarp_status
resolve_locked(clwarp_engine *e)
{
	static const clwarp_backend order[] = { CLWARP_BACKEND_NV, CLWARP_BACKEND_INTEL,
						CLWARP_BACKEND_KHR, CLWARP_BACKEND_LOCAL };
	char why[512];

	if (e->requested_backend != CLWARP_BACKEND_AUTO) {
		if (try_backend(e, e->requested_backend, why, sizeof(why)))
			return CLWARP_OK;
		return set_error(CLWARP_ERROR_BACKEND_UNAVAILABLE,
				 "the %s warp backend cannot run on %s: %s",
				 backend_name(e->requested_backend), e->info.name, why);
	}
	for (size_t i = 0; i < ARRAY_LENGTH(order); i++) {
		if (try_backend(e, order[i], why, sizeof(why)))
			return CLWARP_OK;
		log_debug(&e->logger, "%s backend skipped: %s", backend_name(order[i]), why);
	}
	return set_error(CLWARP_ERROR_BACKEND_UNAVAILABLE,
			 "no warp backend works on %s, not even local memory: %s", e->info.name, why);
}

clwarp_status
backend_resolve(clwarp_engine *e, const struct backend_config **config)
{
	clwarp_status status;

	pthread_mutex_lock(&e->backend_lock);
	if (!e->backend_resolved) {
		e->backend_status = resolve_locked(e);
		snprintf(e->backend_error, sizeof(e->backend_error), "%s", error_message());
		e->backend_resolved = true;
	}
	status = e->backend_status;
	pthread_mutex_unlock(&e->backend_lock);
	if (status != CLWARP_OK)
		return set_error(status, "%s", e->backend_error);
	*config = &e->backend;
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_engine_backend(clwarp_engine *engine, clwarp_backend *backend, unsigned *warp_size)
{
	const struct backend_config *config = NULL;
	clwarp_status status;

	clear_error();
	if (!engine)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine");
	status = backend_resolve(engine, &config);
	if (status != CLWARP_OK)
		return status;
	if (backend)
		*backend = config->backend;
	if (warp_size)
		*warp_size = config->warp_size;
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_engine_backend_native(clwarp_engine *engine, int *native)
{
	const struct backend_config *config = NULL;
	clwarp_status status;

	clear_error();
	if (!engine || !native)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine or output pointer");
	status = backend_resolve(engine, &config);
	if (status != CLWARP_OK)
		return status;
	*native = config->native;
	return CLWARP_OK;
}
