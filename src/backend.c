/* Warp backends: their names and the code each adds to a program (the
 * choice of one per device is backend_choice.c). */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>

#include "device.h"
#include "error.h"
#include "kernels_embedded.h"
#include "sourcewords.h"

static const char *const backend_names[] = { "auto", "khr", "intel", "nv", "local" };


CLWARP_EXPORT const char *
clwarp_backend_name(clwarp_backend backend)
{
	return backend_name(backend);
}

const char *
backend_name(clwarp_backend backend)
{
	return (unsigned)backend < ARRAY_LENGTH(backend_names) ? backend_names[backend] : "unknown";
}

CLWARP_EXPORT clwarp_status
clwarp_backend_from_name(const char *name, clwarp_backend *out)
{
	return backend_from_name(name, out);
}

clwarp_status
backend_from_name(const char *name, clwarp_backend *out)
{
	for (unsigned i = 0; name && i < ARRAY_LENGTH(backend_names); i++) {
		if (streq(name, backend_names[i])) {
			if (out)
				*out = (clwarp_backend)i;
			return CLWARP_OK;
		}
	}
	return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
			 "unknown backend \"%s\" (expected auto, khr, intel, nv or local)",
			 name ? name : "(null)");
}

/* CLWARP_IF_USED_<type>(...) for kernels/warp/types.cl: keeps its
 * argument for the extension types the source names, drops it for the
 * others. */
static void
types_prelude(uint64_t types_named, struct strbuf *out)
{
#define ELEMENT_NAME(name) #name,
	static const char *const names[SOURCE_ELEMENT_COUNT] = { SOURCE_ELEMENT_TYPES(ELEMENT_NAME) };
#undef ELEMENT_NAME
	static const unsigned widths[] = SOURCE_VECTOR_WIDTHS;

	for (unsigned e = 0; e < SOURCE_ELEMENT_COUNT; e++) {
		for (unsigned k = 0; k <= ARRAY_LENGTH(widths); k++) {
			char suffix[8] = "";

			if (k > 0)
				snprintf(suffix, sizeof(suffix), "%u", widths[k - 1]);
			strbuf_printf(out, "#define CLWARP_IF_USED_%s%s(...)%s\n", names[e], suffix,
				      types_named & SOURCE_TYPE_BIT(e, k) ? " __VA_ARGS__" : "");
		}
	}
}

void
backend_prelude(const struct backend_config *config, uint64_t types_named, bool scratch_arg,
		struct strbuf *out)
{
	static const char *const macro[] = { "", "KHR", "INTEL", "NV", "LOCAL" };
	const char *body = clwarp_kernel_warp_local;

	strbuf_printf(out, "#define CLWARP 1\n#define CLWARP_BACKEND_%s 1\n#define CLWARP_WARP_SIZE %u\n",
		      macro[config->backend], config->warp_size);
	if (scratch_arg)
		strbuf_puts(out, "#define CLWARP_SCRATCH_ARG 1\n");
	if (config->fp64)
		strbuf_puts(out, "#define CLWARP_HAS_FP64 1\n");
	if (config->fp16)
		strbuf_puts(out, "#define CLWARP_HAS_FP16 1\n");
	types_prelude(types_named, out);
	if (config->features & FEATURE_KHR_SHUFFLE)
		strbuf_puts(out, "#define CLWARP_KHR_SHUFFLE 1\n");
	if (config->features & FEATURE_KHR_SHUFFLE_RELATIVE)
		strbuf_puts(out, "#define CLWARP_KHR_SHUFFLE_RELATIVE 1\n");
	if (config->features & FEATURE_KHR_BALLOT)
		strbuf_puts(out, "#define CLWARP_KHR_BALLOT 1\n");
	if (config->features & FEATURE_SG_NON_UNIFORM_ARITH)
		strbuf_puts(out, "#define CLWARP_SG_NON_UNIFORM_ARITH 1\n");
	if (config->features & FEATURE_SG_EXTENDED_TYPES)
		strbuf_puts(out, "#define CLWARP_SG_EXTENDED_TYPES 1\n");
	if (config->native)
		strbuf_puts(out, "#define CLWARP_KHR_NATIVE 1\n");
	/* Not through khr's shuffles of W broadcasts each (no shuffle extension). */
	if (config->generic_scans &&
	    (config->backend == CLWARP_BACKEND_INTEL || (config->features & FEATURE_KHR_SHUFFLE)))
		strbuf_puts(out, "#define CLWARP_GENERIC_SCANS 1\n");
	if (config->cl_std_30)
		strbuf_puts(out, "#define CLWARP_KHR_CL3 1\n");
	if (config->backend == CLWARP_BACKEND_NV)
		strbuf_printf(out, "#define CLWARP_NV_SM %u\n", config->nv_sm);
	switch (config->backend) {
	case CLWARP_BACKEND_KHR: body = clwarp_kernel_warp_khr; break;
	case CLWARP_BACKEND_INTEL: body = clwarp_kernel_warp_intel; break;
	case CLWARP_BACKEND_NV: body = clwarp_kernel_warp_nv; break;
	default: break;
	}
	strbuf_puts(out, "#line 1 \"clwarp/warp/common.cl\"\n");
	strbuf_puts(out, clwarp_kernel_warp_common);
	strbuf_printf(out, "\n#line 1 \"clwarp/warp/%s.cl\"\n", backend_name(config->backend));
	strbuf_puts(out, body);
	strbuf_puts(out, "\n#line 1 \"clwarp/warp/generic.cl\"\n");
	strbuf_puts(out, clwarp_kernel_warp_generic);
	strbuf_puts(out, "\n#line 1 \"clwarp/warp/types.cl\"\n");
	strbuf_puts(out, clwarp_kernel_warp_types);
	strbuf_puts(out, "\n");
}

/* sort.cl's hundred functions cost every program that parses them about
 * 25 ms of the compiler's time (clang 15 on a CPU, measured), so only a
 * program whose text or options name warp_sort* or warp_exchange* gets it.
 * The program cache keys hash the full text, so either way is cached right. */
bool
backend_wants_sort(const char *text, const char *options)
{
	static const char *const names[] = { "warp_sort", "warp_exchange" };

	for (size_t i = 0; i < ARRAY_LENGTH(names); i++) {
		if ((text && strstr(text, names[i])) || (options && strstr(options, names[i])))
			return true;
	}
	return false;
}

void
backend_prelude_sort(struct strbuf *out)
{
	strbuf_puts(out, "#line 1 \"clwarp/warp/sort.cl\"\n");
	strbuf_puts(out, clwarp_kernel_warp_sort);
	strbuf_puts(out, "\n");
}

void
backend_source_rewrite(const struct backend_config *config, struct source_rewrite *rewrite)
{
	memset(rewrite, 0, sizeof(*rewrite));
	rewrite->add_scratch_arg = config->backend == CLWARP_BACKEND_LOCAL;
	rewrite->barrier_warps = config->backend == CLWARP_BACKEND_LOCAL || config->barrier_warps;
	rewrite->scratch_for_block_sync = config->backend == CLWARP_BACKEND_KHR ||
					  config->backend == CLWARP_BACKEND_INTEL;
	/* A native width has no pin: the compiler's own choice, checked per launch. */
	if ((config->backend == CLWARP_BACKEND_KHR && !config->native) ||
	    config->backend == CLWARP_BACKEND_INTEL)
		rewrite->reqd_sub_group_size = config->warp_size;
}

size_t
backend_scratch_bytes(const struct backend_config *config, size_t items)
{
	size_t warp = config->warp_size ? config->warp_size : 1;
	size_t rounded = (items + warp - 1) / warp * warp;

	return rounded * sizeof(cl_ulong) + 64;
}
