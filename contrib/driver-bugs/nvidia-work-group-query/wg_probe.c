/*
 * wg_probe: does an OpenCL driver really run work-groups wider than the
 * CL_KERNEL_WORK_GROUP_SIZE it reports?
 *
 * One pass of an LSD radix sort (8-bit digit), shaped like a onesweep
 * pass: every work-item holds ITEMS 4-byte keys in registers, each tile is
 * counted and sorted by digit in local memory (a stable bit-by-bit split
 * with block scans and barriers), every tile publishes its digit counts
 * and looks back across its predecessors' published flags for its digits'
 * positions (tile ids come from an atomic counter, so a tile only ever
 * waits on tiles that already started), then scatters. Built once per
 * width with reqd_work_group_size(WG, 1, 1), launched at that width, and
 * every output value is checked against a host stable partition by digit.
 *
 * Plain C99 + OpenCL 1.2 host API; no other library.
 *
 * Exit status: 0 every width ran right; 1 usage or setup error; 2 wrong
 * values (or wrong work-group size / work-item count seen by the kernel);
 * 3 a build failed or a launch or wait was refused; 4 a hang (watchdog).
 * Wrong values take precedence over a refusal.
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <ctype.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXIT_SETUP 1
#define EXIT_WRONG 2
#define EXIT_REFUSED 3
#define EXIT_HANG 4

#define RADIX 256u
#define MAX_WIDTHS 16

static const char kernel_source[] =
"/* One radix-sort pass; see wg_probe.c. Defines: WG, ITEMS, REQD;\n"
" * SELFTEST_HANG or SELFTEST_WRONG break it on purpose (to check the\n"
" * harness). */\n"
"#define RADIX 256u\n"
"#define TILE (WG * ITEMS)\n"
"#define SCAN_N (WG > RADIX ? WG : RADIX)\n"
"#define ST_AGG 1u\n"
"#define ST_PREFIX 2u\n"
"#define VAL_MASK 0x3fffffffu\n"
"\n"
"/* Inclusive scan of buf[0..len) in place (Hillis-Steele), tmp as scratch.\n"
" * Called by the whole work-group. */\n"
"void block_scan(local uint *buf, local uint *tmp, uint len)\n"
"{\n"
"\tuint lid = get_local_id(0);\n"
"\tfor (uint off = 1; off < len; off <<= 1) {\n"
"\t\tfor (uint i = lid; i < len; i += WG)\n"
"\t\t\ttmp[i] = buf[i] + (i >= off ? buf[i - off] : 0u);\n"
"\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\t\tfor (uint i = lid; i < len; i += WG)\n"
"\t\t\tbuf[i] = tmp[i];\n"
"\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\t}\n"
"}\n"
"\n"
"#if REQD\n"
"__attribute__((reqd_work_group_size(WG, 1, 1)))\n"
"#endif\n"
"__kernel void radix_pass(global const uint *keys_in, global uint *keys_out, uint n,\n"
"\t\t\t uint shift, global const uint *digit_offsets,\n"
"\t\t\t volatile global uint *counter, volatile global uint *flags,\n"
"\t\t\t volatile global uint *info)\n"
"{\n"
"\tlocal uint stage[TILE];\n"
"\tlocal uint scan_a[SCAN_N];\n"
"\tlocal uint scan_b[SCAN_N];\n"
"\tlocal uint hist[RADIX];\n"
"\tlocal uint digit_start[RADIX];\n"
"\tlocal uint digit_base[RADIX];\n"
"\tlocal uint tile_shared;\n"
"\tlocal uint ran;\n"
"\tuint key[ITEMS];\n"
"\tuint lid = get_local_id(0);\n"
"\n"
"\t/* The tile: the next id from the counter, so that every tile before it\n"
"\t * has started (the look-back below waits on them). */\n"
"\tif (lid == 0) {\n"
"\t\ttile_shared = atomic_inc(counter);\n"
"\t\tran = 0;\n"
"\t}\n"
"\tfor (uint d = lid; d < RADIX; d += WG)\n"
"\t\thist[d] = 0;\n"
"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\tuint tile = tile_shared;\n"
"\tatomic_inc(&ran);\n"
"\tuint base = tile * TILE;\n"
"\tuint valid = n - base < TILE ? n - base : TILE;\n"
"\n"
"\t/* Coalesced loads into local memory, then ITEMS consecutive keys per\n"
"\t * work-item into registers; past the input, all-ones keys (digit 255,\n"
"\t * after every real key since the split is stable). */\n"
"\tfor (uint k = 0; k < ITEMS; k++) {\n"
"\t\tuint i = k * WG + lid;\n"
"\t\tstage[i] = i < valid ? keys_in[base + i] : 0xffffffffu;\n"
"\t}\n"
"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\tfor (uint k = 0; k < ITEMS; k++)\n"
"\t\tkey[k] = stage[lid * ITEMS + k];\n"
"\n"
"\t/* The tile's digit counts, published at once (onesweep's early counts). */\n"
"\tfor (uint k = 0; k < ITEMS; k++) {\n"
"\t\tif (lid * ITEMS + k < valid)\n"
"\t\t\tatomic_inc(&hist[(key[k] >> shift) & 0xffu]);\n"
"\t}\n"
"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\tfor (uint d = lid; d < RADIX; d += WG) {\n"
"#ifdef SELFTEST_HANG /* tile 0 never publishes: the others wait forever */\n"
"\t\tif (tile != 0)\n"
"#endif\n"
"\t\tatomic_xchg(&flags[tile * RADIX + d],\n"
"\t\t\t    ((tile == 0 ? ST_PREFIX : ST_AGG) << 30) | hist[d]);\n"
"\t\tscan_a[d] = hist[d];\n"
"\t}\n"
"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\tblock_scan(scan_a, scan_b, RADIX);\n"
"\tfor (uint d = lid; d < RADIX; d += WG)\n"
"\t\tdigit_start[d] = scan_a[d] - hist[d];\n"
"\n"
"\t/* Stable sort of the tile by the digit: one split per bit, each a\n"
"\t * block scan of the work-items' zero counts and a scatter through\n"
"\t * local memory. */\n"
"\tfor (uint b = 0; b < 8; b++) {\n"
"\t\tuint bit = shift + b, zeros = 0;\n"
"\t\tfor (uint k = 0; k < ITEMS; k++)\n"
"\t\t\tzeros += ((key[k] >> bit) & 1u) ^ 1u;\n"
"\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\t\tscan_a[lid] = zeros;\n"
"\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\t\tblock_scan(scan_a, scan_b, WG);\n"
"\t\tuint zb = scan_a[lid] - zeros, total = scan_a[WG - 1];\n"
"\t\tfor (uint k = 0; k < ITEMS; k++) {\n"
"\t\t\tuint p = lid * ITEMS + k;\n"
"\t\t\tuint one = (key[k] >> bit) & 1u;\n"
"\t\t\tuint dst = one ? total + (p - zb) : zb;\n"
"\t\t\tzb += one ^ 1u;\n"
"\t\t\tstage[dst] = key[k];\n"
"\t\t}\n"
"\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\t\tfor (uint k = 0; k < ITEMS; k++)\n"
"\t\t\tkey[k] = stage[lid * ITEMS + k];\n"
"\t}\n"
"\n"
"\t/* Look-back, one work-item per digit: the digit's count in every tile\n"
"\t * before, walking back until a tile that published its inclusive\n"
"\t * prefix; then this tile's inclusive prefix goes out. */\n"
"\tfor (uint d = lid; d < RADIX; d += WG) {\n"
"\t\tuint excl = 0;\n"
"\t\tif (tile > 0) {\n"
"\t\t\tint t = (int)tile - 1;\n"
"\t\t\tfor (;;) {\n"
"\t\t\t\tuint w;\n"
"\t\t\t\tdo\n"
"\t\t\t\t\tw = atomic_or(&flags[(uint)t * RADIX + d], 0u);\n"
"\t\t\t\twhile ((w >> 30) == 0u);\n"
"\t\t\t\texcl += w & VAL_MASK;\n"
"\t\t\t\tif ((w >> 30) == ST_PREFIX || t == 0)\n"
"\t\t\t\t\tbreak;\n"
"\t\t\t\tt--;\n"
"\t\t\t}\n"
"\t\t\tatomic_xchg(&flags[tile * RADIX + d], (ST_PREFIX << 30) | (excl + hist[d]));\n"
"\t\t}\n"
"\t\tdigit_base[d] = digit_offsets[d] + excl - digit_start[d];\n"
"\t}\n"
"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
"\n"
"\t/* Scatter: runs of one digit are consecutive in the stage and in the\n"
"\t * output. */\n"
"\tfor (uint i = lid; i < valid; i += WG) {\n"
"\t\tuint k = stage[i];\n"
"#ifdef SELFTEST_WRONG /* one key per tile altered */\n"
"\t\tk ^= i == 0 ? 1u << 31 : 0u;\n"
"#endif\n"
"\t\tkeys_out[digit_base[(k >> shift) & 0xffu] + i] = k;\n"
"\t}\n"
"\tif (lid == 0) {\n"
"\t\tatomic_add(&info[0], ran);\n"
"\t\tatomic_max(&info[1], (uint)get_local_size(0));\n"
"\t\tatomic_min(&info[2], (uint)get_local_size(0));\n"
"\t\tatomic_inc(&info[3]);\n"
"\t}\n"
"}\n";

/* ---- Watchdog: alarm() around every wait; a hang prints and exits. ---- */

static char hang_message[160];
static size_t hang_length;

static void
on_alarm(int sig)
{
	(void)sig;
	if (write(STDOUT_FILENO, hang_message, hang_length) < 0) {
		/* nothing more to do */
	}
	_exit(EXIT_HANG);
}

static void
watch(unsigned seconds, unsigned wg, const char *what)
{
	hang_length = (size_t)snprintf(hang_message, sizeof(hang_message),
				       "\nHANG at WG=%u: %s did not return within %u s\n", wg, what,
				       seconds);
	if (hang_length >= sizeof(hang_message))
		hang_length = sizeof(hang_message) - 1;
	fflush(stdout);
	alarm(seconds);
}

static void
unwatch(void)
{
	alarm(0);
}

/* ---- Options ---- */

struct options {
	const char *platform;   /* substring of the platform name, or NULL */
	unsigned widths[MAX_WIDTHS];
	unsigned nwidths;
	unsigned items;         /* keys per work-item wanted (fewer where local memory is short) */
	unsigned long n;        /* keys; 0: by device type */
	unsigned shift;
	unsigned reps;
	unsigned timeout;       /* seconds per wait */
	int reqd;
	const char *build_options;
};

static void
usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [-p PLATFORM] [-w 256,384,512,1024] [-i ITEMS] [-n KEYS] [-s SHIFT]\n"
		"          [-r REPS] [-t SECONDS] [-R] [-b BUILD_OPTIONS]\n"
		"  -p  platform whose name contains PLATFORM (case-insensitive);\n"
		"      default: the first GPU device, else the first device\n"
		"  -w  work-group widths (default 256,384,512,1024)\n"
		"  -i  keys per work-item (default 24; fewer where local memory is short)\n"
		"  -n  keys (default 2^25 on a GPU, 2^18 otherwise; below 2^30)\n"
		"  -s  the digit's first bit (default 0, at most 24)\n"
		"  -r  runs per width, every one checked (default 3)\n"
		"  -t  watchdog seconds per wait (default 10)\n"
		"  -R  build without reqd_work_group_size\n"
		"  -b  extra build options (e.g. -cl-nv-maxrregcount=64)\n", argv0);
	exit(EXIT_SETUP);
}

static void
parse(int argc, char **argv, struct options *o)
{
	int c;

	*o = (struct options){ .items = 24, .reps = 3, .timeout = 10, .reqd = 1 };
	o->widths[0] = 256, o->widths[1] = 384, o->widths[2] = 512, o->widths[3] = 1024;
	o->nwidths = 4;
	while ((c = getopt(argc, argv, "p:w:i:n:s:r:t:Rb:h")) != -1) {
		switch (c) {
		case 'p':
			o->platform = optarg[0] ? optarg : NULL;
			break;
		case 'w': {
			char *s = optarg, *end;
			o->nwidths = 0;
			while (*s && o->nwidths < MAX_WIDTHS) {
				unsigned long v = strtoul(s, &end, 10);
				if (end == s || v == 0 || v > 65536)
					usage(argv[0]);
				o->widths[o->nwidths++] = (unsigned)v;
				s = *end == ',' ? end + 1 : end;
				if (*end && *end != ',')
					usage(argv[0]);
			}
			break;
		}
		case 'i':
			o->items = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'n':
			o->n = strtoul(optarg, NULL, 0);
			break;
		case 's':
			o->shift = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'r':
			o->reps = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 't':
			o->timeout = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'R':
			o->reqd = 0;
			break;
		case 'b':
			o->build_options = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc || o->nwidths == 0 || o->items == 0 || o->items > 64 || o->shift > 24 ||
	    o->reps == 0 || o->timeout == 0 || o->n >= (1ul << 30))
		usage(argv[0]);
}

/* ---- Device choice ---- */

static int
contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] &&
		       tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return 1;
	}
	return n == 0;
}

static int
pick_device(const char *want, cl_platform_id *platform, cl_device_id *device)
{
	cl_platform_id ps[16];
	cl_uint np = 0;
	int found = 0;

	if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS || np == 0) {
		fprintf(stderr, "no OpenCL platform\n");
		return 0;
	}
	if (np > 16)
		np = 16;
	/* Pass 0: GPUs only (unless a platform was named); pass 1: any device. */
	for (int pass = want ? 1 : 0; pass < 2 && !found; pass++) {
		for (cl_uint i = 0; i < np && !found; i++) {
			char name[256] = "";
			cl_device_id ds[16];
			cl_uint nd = 0;

			clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
			if (want && !contains_nocase(name, want))
				continue;
			if (clGetDeviceIDs(ps[i], pass == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL, 16,
					   ds, &nd) != CL_SUCCESS || nd == 0)
				continue;
			*platform = ps[i];
			*device = ds[0];
			found = 1;
		}
	}
	if (!found)
		fprintf(stderr, "no OpenCL device%s%s%s\n", want ? " on a platform named like \"" : "",
			want ? want : "", want ? "\"" : "");
	return found;
}

/* ---- Host side ---- */

static double
now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t
rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

static size_t
local_bytes(unsigned wg, unsigned items)
{
	size_t scan = wg > RADIX ? wg : RADIX;

	return (size_t)wg * items * 4 + 2 * scan * 4 + 3 * RADIX * 4 + 2 * 4;
}

/* The keys per work-item at width wg: as many as wanted, fewer where
 * local memory is short. */
static unsigned
items_for(unsigned wg, unsigned want, cl_ulong local_mem)
{
	while (want > 1 && local_bytes(wg, want) > local_mem)
		want--;
	return want;
}

#define CHECK(call)                                                                        \
	do {                                                                               \
		cl_int e_ = (call);                                                        \
		if (e_ != CL_SUCCESS) {                                                    \
			fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, \
				(int)e_);                                                  \
			exit(EXIT_SETUP);                                                  \
		}                                                                          \
	} while (0)

struct shared {
	cl_context ctx;
	cl_command_queue queue;
	cl_device_id dev;
	int nvidia;
	cl_ulong local_mem;
	size_t dev_max_wg;
	cl_uint n;
	const uint32_t *keys;
	const uint32_t *expected;
	uint32_t *out;
	cl_mem in_buf, out_buf, offsets_buf, counter_buf, flags_buf, info_buf;
	size_t flags_words;
};

enum verdict { OK, WRONG, REFUSED };

static void
print_log(cl_program prog, cl_device_id dev)
{
	size_t size = 0;
	char *log;

	if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS ||
	    size <= 1)
		return;
	log = malloc(size);
	if (!log)
		return;
	if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS) {
		char *line = log, *end;
		int any = 0;
		printf("  build log:\n");
		while (*line) {
			end = strchr(line, '\n');
			if (end)
				*end = '\0';
			if (*line) {
				printf("    | %s\n", line);
				any = 1;
			}
			if (!end)
				break;
			line = end + 1;
		}
		if (!any)
			printf("    | (empty)\n");
	}
	free(log);
}

static enum verdict
run_width(struct shared *s, const struct options *o, unsigned wg)
{
	unsigned items = o->items;
	char opts[512];
	cl_int err;
	cl_program prog;
	cl_kernel kern;
	enum verdict verdict = OK;
	double best_ms = -1.0;

	printf("\n=== WG=%u ===\n", wg);
	items = items_for(wg, o->items, s->local_mem);
	if (local_bytes(wg, items) > s->local_mem) {
		printf("  needs %zu bytes of local memory at 1 key per work-item; the device has %llu: REFUSED\n",
		       local_bytes(wg, 1), (unsigned long long)s->local_mem);
		return REFUSED;
	}
	printf("  keys per work-item: %u%s, tile %u keys, local memory (estimate) %zu bytes\n", items,
	       items < o->items ? " (fewer: local memory)" : "", wg * items, local_bytes(wg, items));
	snprintf(opts, sizeof(opts), "-DWG=%uu -DITEMS=%uu -DREQD=%d%s%s%s", wg, items, o->reqd,
		 s->nvidia ? " -cl-nv-verbose" : "", o->build_options ? " " : "",
		 o->build_options ? o->build_options : "");
	printf("  build options: %s\n", opts);

	const char *src = kernel_source;
	prog = clCreateProgramWithSource(s->ctx, 1, &src, NULL, &err);
	CHECK(err);
	watch(120, wg, "clBuildProgram");
	err = clBuildProgram(prog, 1, &s->dev, opts, NULL, NULL);
	unwatch();
	printf("  clBuildProgram: %d\n", (int)err);
	print_log(prog, s->dev);
	if (err != CL_SUCCESS) {
		printf("  build failed: REFUSED\n");
		clReleaseProgram(prog);
		return REFUSED;
	}
	kern = clCreateKernel(prog, "radix_pass", &err);
	CHECK(err);

	size_t kwg = 0, pref = 0, cwg[3] = { 0, 0, 0 };
	cl_ulong priv = 0, lmem = 0;
	cl_int e1 = clGetKernelWorkGroupInfo(kern, s->dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kwg),
					     &kwg, NULL);
	cl_int e2 = clGetKernelWorkGroupInfo(kern, s->dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
					     sizeof(cwg), cwg, NULL);
	cl_int e3 = clGetKernelWorkGroupInfo(kern, s->dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(priv),
					     &priv, NULL);
	cl_int e4 = clGetKernelWorkGroupInfo(kern, s->dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(lmem),
					     &lmem, NULL);
	cl_int e5 = clGetKernelWorkGroupInfo(kern, s->dev,
					     CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
					     sizeof(pref), &pref, NULL);
	printf("  CL_KERNEL_WORK_GROUP_SIZE            = %zu (status %d)%s\n", kwg, (int)e1,
	       e1 == CL_SUCCESS && kwg < wg ? "  <-- below the launch width" : "");
	printf("  CL_KERNEL_COMPILE_WORK_GROUP_SIZE    = (%zu, %zu, %zu) (status %d)\n", cwg[0],
	       cwg[1], cwg[2], (int)e2);
	printf("  CL_KERNEL_PRIVATE_MEM_SIZE           = %llu bytes (status %d)\n",
	       (unsigned long long)priv, (int)e3);
	printf("  CL_KERNEL_LOCAL_MEM_SIZE             = %llu bytes (status %d)\n",
	       (unsigned long long)lmem, (int)e4);
	printf("  CL_KERNEL_PREFERRED_WG_SIZE_MULTIPLE = %zu (status %d)\n", pref, (int)e5);

	cl_uint n = s->n, shift = o->shift;
	cl_uint tile = wg * items, tiles = (n + tile - 1) / tile;
	size_t global = (size_t)tiles * wg, local = wg;
	printf("  %u keys, %u work-groups of %u (%zu work-items)\n", n, tiles, wg, global);
	if ((size_t)tiles * RADIX > s->flags_words) {
		printf("  internal error: flag buffer too small\n");
		exit(EXIT_SETUP);
	}
	CHECK(clSetKernelArg(kern, 0, sizeof(cl_mem), &s->in_buf));
	CHECK(clSetKernelArg(kern, 1, sizeof(cl_mem), &s->out_buf));
	CHECK(clSetKernelArg(kern, 2, sizeof(cl_uint), &n));
	CHECK(clSetKernelArg(kern, 3, sizeof(cl_uint), &shift));
	CHECK(clSetKernelArg(kern, 4, sizeof(cl_mem), &s->offsets_buf));
	CHECK(clSetKernelArg(kern, 5, sizeof(cl_mem), &s->counter_buf));
	CHECK(clSetKernelArg(kern, 6, sizeof(cl_mem), &s->flags_buf));
	CHECK(clSetKernelArg(kern, 7, sizeof(cl_mem), &s->info_buf));

	for (unsigned rep = 0; rep < o->reps && verdict == OK; rep++) {
		const cl_uint zero = 0, ones = 0xffffffffu;
		cl_uint info[4] = { 0, 0, 0xffffffffu, 0 };
		cl_event ev = NULL;
		double t0;

		CHECK(clEnqueueFillBuffer(s->queue, s->counter_buf, &zero, sizeof(zero), 0,
					  sizeof(cl_uint), 0, NULL, NULL));
		CHECK(clEnqueueFillBuffer(s->queue, s->flags_buf, &zero, sizeof(zero), 0,
					  (size_t)tiles * RADIX * sizeof(cl_uint), 0, NULL, NULL));
		CHECK(clEnqueueFillBuffer(s->queue, s->out_buf, &ones, sizeof(ones), 0,
					  (size_t)n * sizeof(cl_uint), 0, NULL, NULL));
		CHECK(clEnqueueWriteBuffer(s->queue, s->info_buf, CL_TRUE, 0, sizeof(info), info, 0,
					   NULL, NULL));
		watch(o->timeout, wg, "clFinish before the launch");
		CHECK(clFinish(s->queue));
		unwatch();

		t0 = now_s();
		cl_int enq = clEnqueueNDRangeKernel(s->queue, kern, 1, NULL, &global, &local, 0, NULL,
						    &ev);
		cl_int flush = enq == CL_SUCCESS ? clFlush(s->queue) : CL_SUCCESS;
		watch(o->timeout, wg, "clWaitForEvents/clFinish on the kernel");
		cl_int wait = enq == CL_SUCCESS ? clWaitForEvents(1, &ev) : CL_SUCCESS;
		cl_int fin = clFinish(s->queue);
		unwatch();
		double wall_ms = 1e3 * (now_s() - t0);
		cl_int exec = 0;
		cl_ulong start = 0, end = 0;
		double kern_ms = -1.0;
		if (ev) {
			clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(exec), &exec, NULL);
			if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(start),
						    &start, NULL) == CL_SUCCESS &&
			    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end,
						    NULL) == CL_SUCCESS && end >= start)
				kern_ms = 1e-6 * (double)(end - start);
			clReleaseEvent(ev);
		}
		printf("  run %u: enqueue %d, flush %d, wait %d, finish %d, event status %d", rep,
		       (int)enq, (int)flush, (int)wait, (int)fin, (int)exec);
		if (enq != CL_SUCCESS || wait != CL_SUCCESS || fin != CL_SUCCESS || exec < 0) {
			printf("  -> REFUSED\n");
			verdict = REFUSED;
			break;
		}

		watch(o->timeout, wg, "reading the results");
		CHECK(clEnqueueReadBuffer(s->queue, s->out_buf, CL_TRUE, 0, (size_t)n * sizeof(cl_uint),
					  s->out, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(s->queue, s->info_buf, CL_TRUE, 0, sizeof(info), info, 0,
					  NULL, NULL));
		unwatch();
		size_t wrong = 0, first = (size_t)-1;
		for (size_t i = 0; i < n; i++) {
			if (s->out[i] != s->expected[i]) {
				if (!wrong)
					first = i;
				wrong++;
			}
		}
		printf(", wrong values %zu of %u", wrong, n);
		if (kern_ms >= 0)
			printf(", kernel %.3f ms (%.2f Gkeys/s)", kern_ms, 1e-6 * n / kern_ms);
		printf(", wall %.3f ms\n", wall_ms);
		if (wrong) {
			printf("    first wrong at %zu: 0x%08x, expected 0x%08x\n", first,
			       (unsigned)s->out[first], (unsigned)s->expected[first]);
			verdict = WRONG;
		}
		if (info[0] != (cl_uint)global || info[1] != wg || info[2] != wg || info[3] != tiles) {
			printf("    kernel saw: %u work-items ran (want %zu), local size %u..%u (want %u), %u groups (want %u)\n",
			       info[0], global, info[2], info[1], wg, info[3], tiles);
			verdict = WRONG;
		}
		if (kern_ms >= 0 && (best_ms < 0 || kern_ms < best_ms))
			best_ms = kern_ms;
	}
	printf("  WG=%u: %s", wg, verdict == OK ? "OK" : verdict == WRONG ? "WRONG VALUES" : "REFUSED");
	if (verdict == OK && best_ms >= 0)
		printf(" (best kernel time %.3f ms)", best_ms);
	printf("\n");
	clReleaseKernel(kern);
	clReleaseProgram(prog);
	return verdict;
}

int
main(int argc, char **argv)
{
	struct options o;
	struct shared s = { 0 };
	cl_platform_id platform;
	cl_device_type type = 0;
	char pname[256] = "", pver[256] = "", dname[256] = "", dver[256] = "", drv[256] = "";
	cl_int err;
	struct sigaction sa;

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse(argc, argv, &o);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);

	if (!pick_device(o.platform, &platform, &s.dev))
		return EXIT_SETUP;
	s.nvidia = 0;
	clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(pname), pname, NULL);
	clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof(pver), pver, NULL);
	clGetDeviceInfo(s.dev, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
	clGetDeviceInfo(s.dev, CL_DEVICE_VERSION, sizeof(dver), dver, NULL);
	clGetDeviceInfo(s.dev, CL_DRIVER_VERSION, sizeof(drv), drv, NULL);
	clGetDeviceInfo(s.dev, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
	clGetDeviceInfo(s.dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(s.local_mem), &s.local_mem, NULL);
	clGetDeviceInfo(s.dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(s.dev_max_wg), &s.dev_max_wg,
			NULL);
	cl_uint cus = 0;
	clGetDeviceInfo(s.dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, NULL);
	s.nvidia = contains_nocase(pname, "NVIDIA");
	printf("platform: %s (%s)\n", pname, pver);
	printf("device:   %s (%s), driver %s, %u compute units\n", dname, dver, drv, cus);
	printf("CL_DEVICE_MAX_WORK_GROUP_SIZE = %zu, CL_DEVICE_LOCAL_MEM_SIZE = %llu\n", s.dev_max_wg,
	       (unsigned long long)s.local_mem);

	s.n = (cl_uint)(o.n ? o.n : (type & CL_DEVICE_TYPE_GPU) ? 1ul << 25 : 1ul << 18);
	printf("keys: %u, digit bits [%u, %u), reqd_work_group_size: %s, watchdog %u s per wait\n",
	       s.n, o.shift, o.shift + 8, o.reqd ? "yes" : "no", o.timeout);

	s.ctx = clCreateContext(NULL, 1, &s.dev, NULL, NULL, &err);
	CHECK(err);
	s.queue = clCreateCommandQueue(s.ctx, s.dev, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK(err);

	/* Keys, their digit offsets, and the expected pass: a stable
	 * partition by digit (a counting sort). */
	uint32_t *keys = malloc((size_t)s.n * 4), *expected = malloc((size_t)s.n * 4);
	s.out = malloc((size_t)s.n * 4);
	if (!keys || !expected || !s.out) {
		fprintf(stderr, "out of memory\n");
		return EXIT_SETUP;
	}
	cl_uint offsets[RADIX] = { 0 }, pos[RADIX];
	for (cl_uint i = 0; i < s.n; i++) {
		keys[i] = rng();
		offsets[(keys[i] >> o.shift) & 0xffu]++;
	}
	for (cl_uint d = 0, run = 0; d < RADIX; d++) {
		cl_uint c = offsets[d];
		offsets[d] = run;
		run += c;
	}
	memcpy(pos, offsets, sizeof(pos));
	for (cl_uint i = 0; i < s.n; i++)
		expected[pos[(keys[i] >> o.shift) & 0xffu]++] = keys[i];
	s.keys = keys;
	s.expected = expected;

	/* Flags: a word per digit for every tile of the width with the most. */
	for (unsigned i = 0; i < o.nwidths; i++) {
		size_t tile = (size_t)o.widths[i] * items_for(o.widths[i], o.items, s.local_mem);
		size_t words = ((s.n + tile - 1) / tile) * RADIX;
		s.flags_words = words > s.flags_words ? words : s.flags_words;
	}
	s.in_buf = clCreateBuffer(s.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)s.n * 4,
				  keys, &err);
	CHECK(err);
	s.out_buf = clCreateBuffer(s.ctx, CL_MEM_READ_WRITE, (size_t)s.n * 4, NULL, &err);
	CHECK(err);
	s.offsets_buf = clCreateBuffer(s.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				       sizeof(offsets), offsets, &err);
	CHECK(err);
	s.counter_buf = clCreateBuffer(s.ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
	CHECK(err);
	s.flags_buf = clCreateBuffer(s.ctx, CL_MEM_READ_WRITE, s.flags_words * 4, NULL, &err);
	CHECK(err);
	s.info_buf = clCreateBuffer(s.ctx, CL_MEM_READ_WRITE, 4 * sizeof(cl_uint), NULL, &err);
	CHECK(err);

	enum verdict v[MAX_WIDTHS];
	int any_wrong = 0, any_refused = 0;
	for (unsigned i = 0; i < o.nwidths; i++) {
		v[i] = run_width(&s, &o, o.widths[i]);
		any_wrong |= v[i] == WRONG;
		any_refused |= v[i] == REFUSED;
	}

	printf("\nsummary (%s, %s):", dname, drv);
	for (unsigned i = 0; i < o.nwidths; i++)
		printf(" WG=%u %s;", o.widths[i],
		       v[i] == OK ? "ok" : v[i] == WRONG ? "WRONG" : "REFUSED");
	printf("\n");

	clReleaseMemObject(s.in_buf);
	clReleaseMemObject(s.out_buf);
	clReleaseMemObject(s.offsets_buf);
	clReleaseMemObject(s.counter_buf);
	clReleaseMemObject(s.flags_buf);
	clReleaseMemObject(s.info_buf);
	clReleaseCommandQueue(s.queue);
	clReleaseContext(s.ctx);
	free(keys);
	free(expected);
	free(s.out);
	return any_wrong ? EXIT_WRONG : any_refused ? EXIT_REFUSED : 0;
}
