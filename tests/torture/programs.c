/* Cache torture test: the kernels the workers build and their host references. */
/* SPDX-License-Identifier: MIT */
#include "torture.h"

/*
 * Six small kernels, each built with a per-variant constant C. They reach
 * the cache key in every way a build can differ: C printed into the text,
 * C as a -D option, an #include found next to the file, an #include found
 * through -I. The include ones also read TORTURE_K from a header the driver
 * rewrites between rounds with the same path, size and options, so only
 * the expanded text tells the programs of two rounds apart. One kernel
 * uses the warp API (warp width in the key and the probe verdicts in the
 * same folder). Arithmetic is on uint or on small values, so the reference
 * is exact; the float kernel only adds and scales by a power of two.
 */

static const char affine_src[] =
	"__kernel void t_affine(__global const int *in, __global int *out)\n"
	"{\n"
	"\tuint i = get_global_id(0);\n"
	"\tout[i] = (int)((uint)in[i] * %du + i);\n"
	"}\n";

static uint64_t
affine_ref(const int32_t *in, size_t i, int c, int k, unsigned w)
{
	return (uint32_t)((uint32_t)in[i] * (uint32_t)c + (uint32_t)i);
}

static const char mix_src[] =
	"__kernel void t_mix(__global const int *in, __global int *out)\n"
	"{\n"
	"\tuint i = get_global_id(0);\n"
	"\tuint x = ((uint)in[i] ^ (uint)C) * 2654435761u;\n"
	"\tout[i] = (int)(x >> 7 ^ x);\n"
	"}\n";

static uint64_t
mix_ref(const int32_t *in, size_t i, int c, int k, unsigned w)
{
	uint32_t x = ((uint32_t)in[i] ^ (uint32_t)c) * 2654435761u;

	return (uint32_t)(x >> 7 ^ x);
}

const char torture_incfile_text[] =
	"#include \"" TORTURE_K_HEADER "\"\n"
	"__kernel void t_incfile(__global const int *in, __global int *out)\n"
	"{\n"
	"\tuint i = get_global_id(0);\n"
	"\tout[i] = in[i] + TORTURE_K * (int)(i % 7u) + C;\n"
	"}\n";

static uint64_t
incfile_ref(const int32_t *in, size_t i, int c, int k, unsigned w)
{
	return (uint32_t)(in[i] + k * (int32_t)(i % 7) + c);
}

static const char incpath_src[] =
	"#include \"" TORTURE_K_HEADER "\"\n"
	"__kernel void t_incpath(__global const int *in, __global long *out)\n"
	"{\n"
	"\tuint i = get_global_id(0);\n"
	"\tout[i] = (long)in[i] * (long)(TORTURE_K + C) - (long)i;\n"
	"}\n";

static uint64_t
incpath_ref(const int32_t *in, size_t i, int c, int k, unsigned w)
{
	return (uint64_t)((int64_t)in[i] * (int64_t)(k + c) - (int64_t)i);
}

static const char warp_src[] =
	"__kernel void t_warp(__global const int *in, __global int *out)\n"
	"{\n"
	"\tuint i = get_global_id(0);\n"
	"\tuint v = (uint)in[i];\n"
	"\tuint s = warp_reduce_add(v);\n"
	"\tuint p = warp_scan_exclusive_add(v);\n"
	"\tout[i] = (int)(s * (uint)C + p + warp_lane_id());\n"
	"}\n";

/* Warps are runs of w consecutive items inside each work-group (1-D). */
static uint64_t
warp_ref(const int32_t *in, size_t i, int c, int k, unsigned w)
{
	size_t first = i / w * w;
	uint32_t s = 0, p = 0;

	for (size_t j = first; j < first + w; j++) {
		s += (uint32_t)in[j];
		if (j < i)
			p += (uint32_t)in[j];
	}
	return (uint32_t)(s * (uint32_t)c + p + (uint32_t)(i % TORTURE_LOCAL % w));
}

static const char fscale_src[] =
	"__kernel void t_fscale(__global const int *in, __global float *out)\n"
	"{\n"
	"\tuint i = get_global_id(0);\n"
	"\tout[i] = (float)in[i] * 0.25f + %d.0f;\n"
	"}\n";

/* Exact in binary32 for |in| < 2^20 and small c, so the bits must match. */
static uint64_t
fscale_ref(const int32_t *in, size_t i, int c, int k, unsigned w)
{
	union { float f; uint32_t u; } v;

	v.f = (float)in[i] * 0.25f + (float)c;
	return v.u;
}

const struct torture_program torture_programs[] = {
	{ "affine", BUILD_TEXT, affine_src, 4, 0, affine_ref },
	{ "mix", BUILD_OPTION, mix_src, 4, 0, mix_ref },
	{ "incfile", BUILD_FILE, NULL, 4, 0, incfile_ref },
	{ "incpath", BUILD_INCPATH, incpath_src, 8, 0, incpath_ref },
	{ "warp", BUILD_OPTION, warp_src, 4, 1, warp_ref },
	{ "fscale", BUILD_TEXT, fscale_src, 4, 0, fscale_ref },
};

const size_t torture_program_count = sizeof(torture_programs) / sizeof(torture_programs[0]);

int32_t
torture_input(uint64_t seed, size_t i)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15u + i * 0xbf58476d1ce4e5b9u + 1;

	x ^= x >> 31;
	x *= 0x94d049bb133111ebu;
	x ^= x >> 29;
	/* -2^19 .. 2^19 - 1 */
	return (int32_t)(x % (1u << 20)) - (1 << 19);
}
