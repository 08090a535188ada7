/* Radix sort throughput: clwarp_sort_keys / clwarp_sort_pairs per size,
 * with a host qsort beside it on CPU devices. */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: sort-bench [--device SPEC] [--backend NAME] [--min-log2 N] [--max-log2 N]
 *                   [--reps R] [--host] [--bits B[:E]] [--cases LIST] [--tsv FILE]
 *
 * Each repetition restores the unsorted input with a device copy, then
 * times the sort alone: OpenCL profiling from a marker enqueued just
 * before the call to the end of its last command (the engine's queue has
 * CLWARP_ENGINE_PROFILING), as algorithms-bench does; cub-sort-bench.cu
 * times CUB the same way with cudaEvents. Medians. Mkeys/s = n / time.
 * --host adds qsort of the same keys (median of 3; not for the cases with
 * NaNs or in totalOrder), the CPU baseline, its result checked against the
 * device's; and for the pairs of uint or ulong keys, qsort of (key,
 * value, input place) structs by key and then place, so that equal keys
 * keep their input order (packing and unpacking the arrays timed with it;
 * median of 3; its result checked against the device's). Host rows have
 * backend "host" and the op and type of the device rows they go with.
 * --cases LIST runs only the named cases, comma-separated among keys-uint,
 * keys-int, keys-float, pairs-uint, keys-ulong, pairs-ulong (ulong keys,
 * uint values; default: these six), keys-uint-fbits (uint keys with
 * keys-float's bit patterns; only when named), keys-float-nan (keys-float
 * with a NaN of its own payload every 1024 keys; only when named),
 * keys-float-total (keys-float in IEEE totalOrder, CLWARP_SORT_TOTAL_ORDER;
 * only when named), pairs-ulong-ulong (ulong keys and values, TSV type
 * "ulong-ulong"; only when named), pairs-uint-ulong (uint keys, ulong
 * values, TSV type "uint-ulong"; only when named).
 * TSV rows: device backend op type n median_ms mkeys_per_s.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <clwarp/algorithms.h>

#include "bench-util.h"

struct sort_case {
	const char *name;   /* for --cases */
	const char *op;
	clwarp_type key;
	int value;   /* -1: keys only */
	/* Set: uint keys holding keys-float's bit patterns, to tell what the
	 * float keys' data does from what their code does; run only when
	 * --cases names it. Its TSV type is "uint-fbits". */
	int float_bits;
	/* Set: a NaN every NAN_EVERY float keys (TSV type "float-nan"), so
	 * that sorts of keys with NaNs can be timed; only when named. */
	int nans;
	/* Set: CLWARP_SORT_TOTAL_ORDER (TSV type "float-total"); only when named. */
	int total_order;
	/* Set: run only when --cases names it. */
	int only_named;
};

#define NAN_EVERY 1024

static const struct sort_case cases[] = {
	{ "keys-uint", "sort_keys", CLWARP_TYPE_UINT, -1, 0, 0, 0, 0 },
	{ "keys-int", "sort_keys", CLWARP_TYPE_INT, -1, 0, 0, 0, 0 },
	{ "keys-float", "sort_keys", CLWARP_TYPE_FLOAT, -1, 0, 0, 0, 0 },
	{ "pairs-uint", "sort_pairs", CLWARP_TYPE_UINT, CLWARP_TYPE_UINT, 0, 0, 0, 0 },
	{ "keys-ulong", "sort_keys", CLWARP_TYPE_ULONG, -1, 0, 0, 0, 0 },
	{ "pairs-ulong", "sort_pairs", CLWARP_TYPE_ULONG, CLWARP_TYPE_UINT, 0, 0, 0, 0 },
	{ "keys-uint-fbits", "sort_keys", CLWARP_TYPE_UINT, -1, 1, 0, 0, 1 },
	{ "keys-float-nan", "sort_keys", CLWARP_TYPE_FLOAT, -1, 0, 1, 0, 1 },
	{ "keys-float-total", "sort_keys", CLWARP_TYPE_FLOAT, -1, 0, 0, 1, 1 },
	{ "pairs-ulong-ulong", "sort_pairs", CLWARP_TYPE_ULONG, CLWARP_TYPE_ULONG, 0, 0, 0, 1 },
	{ "pairs-uint-ulong", "sort_pairs", CLWARP_TYPE_UINT, CLWARP_TYPE_ULONG, 0, 0, 0, 1 },
};

/* Whether `name` is one of the comma-separated names of `list` (NULL: all). */
static int
case_wanted(const char *list, const char *name)
{
	size_t len = strlen(name);

	if (!list)
		return 1;
	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t l = end ? (size_t)(end - p) : strlen(p);

		if (l == len && !strncmp(p, name, len))
			return 1;
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

/* --bits B or B:E: sort on bits [0, B) or [B, E) only (CLWARP_SORT_BITS),
 * to split a sort's time into its passes; the result is then not checked. */
static unsigned sort_flags;

static const char *const type_names[] = { "int", "uint", "long", "ulong", "float", "double" };

static _Noreturn void
die(const char *what, clwarp_status s)
{
	fprintf(stderr, "sort-bench: %s: %s (%s)\n", what, clwarp_status_name(s), clwarp_last_error());
	exit(1);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_f32(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

static cl_ulong
stamp(cl_event ev, cl_profiling_info what)
{
	cl_ulong t = 0;

	clGetEventProfilingInfo(ev, what, sizeof(t), &t, NULL);
	return t;
}

/* One timed sort of `keys` (and `values`), restored from the pristine copies first. */
static double
timed_sort(clwarp_engine *e, const struct sort_case *c, cl_mem pristine_k, cl_mem keys,
	   cl_mem pristine_v, cl_mem values, size_t n)
{
	cl_command_queue q = clwarp_engine_queue(e);
	size_t ks = clwarp_type_size(c->key);
	cl_event mark = NULL, last = NULL;
	clwarp_status s;
	double ms;

	clEnqueueCopyBuffer(q, pristine_k, keys, 0, 0, n * ks, 0, NULL, NULL);
	if (c->value >= 0)
		clEnqueueCopyBuffer(q, pristine_v, values, 0, 0, n * clwarp_type_size((clwarp_type)c->value), 0,
				    NULL, NULL);
	clFinish(q);
	clEnqueueMarkerWithWaitList(q, 0, NULL, &mark);
	clFlush(q);
	unsigned flags = sort_flags | (c->total_order ? CLWARP_SORT_TOTAL_ORDER : 0);

	if (c->value >= 0)
		s = clwarp_sort_pairs(e, c->key, (clwarp_type)c->value, keys, values, n, flags,
				&last);
	else
		s = clwarp_sort_keys(e, c->key, keys, n, flags, &last);
	if (s != CLWARP_OK)
		die(c->op, s);
	clFinish(q);
	ms = (double)(stamp(last, CL_PROFILING_COMMAND_END) - stamp(mark, CL_PROFILING_COMMAND_END)) * 1e-6;
	clReleaseEvent(mark);
	clReleaseEvent(last);
	return ms;
}

/* --host for the keys (not those with NaNs, nor in totalOrder): qsort of a
 * copy of the input (median of 3; the copy not timed); then its result
 * against the device's (`keys`: the last timed sort's). */
static double
host_sort_keys(clwarp_engine *e, const struct sort_case *c, const void *input, size_t n,
	       cl_mem keys)
{
	size_t ks = clwarp_type_size(c->key);
	int (*cmp)(const void *, const void *) = ks == 8 ? cmp_u64
						 : c->key == CLWARP_TYPE_INT ? cmp_i32
						 : c->key == CLWARP_TYPE_FLOAT ? cmp_f32 : cmp_u32;
	uint8_t *copy = malloc(n * ks), *dk = malloc(n * ks);
	double hs[3];

	if (!copy || !dk) {
		fprintf(stderr, "sort-bench: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < 3; i++) {
		double t0;

		memcpy(copy, input, n * ks);
		t0 = bench_now_s();
		qsort(copy, n, ks, cmp);
		hs[i] = (bench_now_s() - t0) * 1e3;
	}
	if (clwarp_buffer_read(e, keys, 0, n * ks, dk) != CLWARP_OK || memcmp(copy, dk, n * ks)) {
		fprintf(stderr, "sort-bench: %s %s n=%zu: qsort's keys differ from the device's\n",
			c->op, type_names[c->key], n);
		exit(1);
	}
	free(copy);
	free(dk);
	return bench_median(hs, 3);
}

/* A (key, value) pair for the host's pairs sort, with its place in the
 * input so that qsort (not stable itself) keeps equal keys in input order,
 * as clwarp_sort_pairs does. */
struct host_pair {
	uint64_t key, value;
	size_t index;
};

static int
cmp_pair(const void *a, const void *b)
{
	const struct host_pair *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static uint64_t
load(const uint8_t *p, size_t i, size_t size)
{
	return size == 8 ? ((const uint64_t *)p)[i] : ((const uint32_t *)p)[i];
}

static void
store(uint8_t *p, size_t i, size_t size, uint64_t x)
{
	if (size == 8)
		((uint64_t *)p)[i] = x;
	else
		((uint32_t *)p)[i] = (uint32_t)x;
}

/* --host for the pairs cases of unsigned keys: the pairs packed into
 * structs, qsort by key and then input place, and unpacked into keys and
 * values, timed as a whole (median of 3, as the keys' qsort); then its
 * result against the device's (`keys`, `values`: the last timed sort's),
 * key and value for each place. */
static double
host_sort_pairs(clwarp_engine *e, const struct sort_case *c, const uint8_t *hk, const uint8_t *hv,
		size_t n, cl_mem keys, cl_mem values)
{
	size_t ks = clwarp_type_size(c->key), vs = clwarp_type_size((clwarp_type)c->value);
	struct host_pair *p = malloc(n * sizeof(*p));
	uint8_t *ok = malloc(n * ks), *ov = malloc(n * vs), *dk = malloc(n * ks), *dv = malloc(n * vs);
	double hs[3];

	if (!p || !ok || !ov || !dk || !dv) {
		fprintf(stderr, "sort-bench: out of memory\n");
		exit(1);
	}
	for (int r = 0; r < 3; r++) {
		double t0 = bench_now_s();

		for (size_t i = 0; i < n; i++)
			p[i] = (struct host_pair){ load(hk, i, ks), load(hv, i, vs), i };
		qsort(p, n, sizeof(*p), cmp_pair);
		for (size_t i = 0; i < n; i++) {
			store(ok, i, ks, p[i].key);
			store(ov, i, vs, p[i].value);
		}
		hs[r] = (bench_now_s() - t0) * 1e3;
	}
	if (clwarp_buffer_read(e, keys, 0, n * ks, dk) != CLWARP_OK ||
	    clwarp_buffer_read(e, values, 0, n * vs, dv) != CLWARP_OK || memcmp(ok, dk, n * ks) ||
	    memcmp(ov, dv, n * vs)) {
		fprintf(stderr, "sort-bench: %s %s n=%zu: the host's pairs differ from the device's\n",
			c->op, type_names[c->key], n);
		exit(1);
	}
	free(p);
	free(ok);
	free(ov);
	free(dk);
	free(dv);
	return bench_median(hs, 3);
}

/* The sorted keys, checked on the host for order (int as signed, uint and
 * ulong as unsigned, float by value); with NaNs, the numbers first and then every
 * NaN of `input`, bit for bit, in input order. */
static void
check_sorted(clwarp_engine *e, const struct sort_case *c, cl_mem keys, const void *input, size_t n)
{
	size_t ks = clwarp_type_size(c->key), numbers = n;
	uint8_t *h = malloc(n * ks);

	if (!h || clwarp_buffer_read(e, keys, 0, n * ks, h) != CLWARP_OK) {
		fprintf(stderr, "sort-bench: reading the result failed\n");
		exit(1);
	}
	if (c->nans) {
		const uint32_t *in = input, *out = (const uint32_t *)h;

		numbers = n - n / NAN_EVERY;
		for (size_t i = 0, j = numbers; i < n; i++) {
			if (!isnan(((const float *)input)[i]))
				continue;
			if (j >= n || out[j] != in[i]) {
				fprintf(stderr, "sort-bench: %s n=%zu: NaN %zu of the input (0x%08x) is not at %zu\n",
					c->op, n, i, in[i], j);
				exit(1);
			}
			j++;
		}
	}
	for (size_t i = 1; i < numbers; i++) {
		int bad = c->key == CLWARP_TYPE_FLOAT ? ((float *)h)[i - 1] > ((float *)h)[i]
			  : c->key == CLWARP_TYPE_INT ? ((int32_t *)h)[i - 1] > ((int32_t *)h)[i]
			  : ks == 4 ? ((uint32_t *)h)[i - 1] > ((uint32_t *)h)[i]
				    : ((uint64_t *)h)[i - 1] > ((uint64_t *)h)[i];
		if (bad) {
			fprintf(stderr, "sort-bench: %s %s n=%zu: keys %zu and %zu out of order\n", c->op,
				type_names[c->key], n, i - 1, i);
			exit(1);
		}
	}
	free(h);
}

int
main(int argc, char **argv)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	const char *tsv_path = NULL, *case_list = NULL;
	int min_log2 = 16, max_log2 = 26, reps = 20, host = 0;
	FILE *tsv = NULL;
	char backend_name[32];
	unsigned warp = 0;
	clwarp_backend backend;
	clwarp_status s;

	clwarp_engine_options_init(&o);
	o.flags |= CLWARP_ENGINE_PROFILING;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--host")) {
			host = 1;
			continue;
		}
		if (!v) {
			fprintf(stderr, "usage: sort-bench [--device SPEC] [--backend NAME] [--min-log2 N] [--max-log2 N] [--reps R] [--host] [--bits B[:E]] [--cases LIST] [--tsv FILE]\n");
			return 2;
		}
		i++;
		if (!strcmp(a, "--device"))
			o.device = v;
		else if (!strcmp(a, "--backend") && clwarp_backend_from_name(v, &o.backend) != CLWARP_OK)
			die("--backend", CLWARP_ERROR_INVALID_ARGUMENT);
		else if (bench_sweep_option(a, v, &min_log2, &max_log2, &reps, &tsv_path))
			continue;
		else if (!strcmp(a, "--bits"))
			sort_flags = strchr(v, ':') ? CLWARP_SORT_BITS(atoi(v), atoi(strchr(v, ':') + 1)) :
						      CLWARP_SORT_BITS(0, atoi(v));
		else if (!strcmp(a, "--cases"))
			case_list = v;
	}
	if (case_list) {
		int any = 0;

		for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++)
			any |= case_wanted(case_list, cases[ci].name);
		if (!any) {
			fprintf(stderr, "sort-bench: --cases: none of keys-uint, keys-int, keys-float, pairs-uint, keys-ulong, pairs-ulong, keys-uint-fbits, keys-float-nan, keys-float-total, pairs-ulong-ulong, pairs-uint-ulong\n");
			return 2;
		}
	}
	s = clwarp_engine_new(&o, &e);
	if (s != CLWARP_OK)
		die("creating the engine", s);
	s = clwarp_engine_backend(e, &backend, &warp);
	if (s != CLWARP_OK)
		die("the warp backend", s);
	snprintf(backend_name, sizeof(backend_name), "%s", clwarp_backend_name(backend));
	const clwarp_device_info *info = clwarp_engine_device_info(e);
	/* Keys, values, pristine copies and the engine's second buffers: 6 x 8 bytes a key. */
	while (max_log2 > min_log2 && ((uint64_t)48 << max_log2) > info->global_mem_size / 2)
		max_log2--;
	if (tsv_path && !(tsv = fopen(tsv_path, "w"))) {
		perror(tsv_path);
		return 1;
	}
	printf("device: %s (%s), backend %s, warp %u\n", info->name, info->driver_version,
	       backend_name, warp);
	printf("%-10s %-6s %5s %12s %12s %12s\n", "op", "type", "log2", "median ms", "Mkeys/s",
	       host ? "qsort Mk/s" : "");
	for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		const struct sort_case *c = &cases[ci];
		size_t ks = clwarp_type_size(c->key);
		size_t vs = c->value >= 0 ? clwarp_type_size((clwarp_type)c->value) : 0;

		if (!case_wanted(case_list, c->name) ||
		    (c->only_named && !case_list))
			continue;
		for (int l = min_log2; l <= max_log2; l += 2) {
			size_t n = (size_t)1 << l;
			uint8_t *h = malloc(n * ks);
			uint8_t *hv = malloc(n * (vs ? vs : 4));
			cl_mem pk, k, pv = NULL, v = NULL;
			double *t = malloc(sizeof(double) * (size_t)reps), ms, host_ms = 0;
			uint64_t rng = 42 + (uint64_t)l;
			int r = n > ((size_t)1 << 24) ? (reps + 1) / 2 : reps;

			if (!h || !hv || !t) {
				fprintf(stderr, "sort-bench: out of memory\n");
				return 1;
			}
			for (size_t i = 0; i < n; i++) {
				uint64_t x = bench_splitmix(&rng);

				if (c->nans && i % NAN_EVERY == NAN_EVERY - 1)   /* payload and sign from x */
					((uint32_t *)h)[i] = (0x7f800001u + (uint32_t)(x % 0x7fffffu)) |
							     (uint32_t)(x >> 63) << 31;
				else if (c->key == CLWARP_TYPE_FLOAT || c->float_bits)
					((float *)h)[i] = (float)((double)(int64_t)x * 0x1p-40);
				else if (ks == 4)
					((uint32_t *)h)[i] = (uint32_t)x;
				else
					((uint64_t *)h)[i] = x;
				if (vs == 8)
					((uint64_t *)hv)[i] = i;
				else
					((uint32_t *)hv)[i] = (uint32_t)i;
			}
			if ((s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, n * ks, h, &pk)) != CLWARP_OK ||
			    (s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, n * ks, NULL, &k)) != CLWARP_OK)
				die("buffers", s);
			if (c->value >= 0 &&
			    ((s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, n * vs, hv, &pv)) != CLWARP_OK ||
			     (s = clwarp_buffer_new(e, CL_MEM_READ_WRITE, n * vs, NULL, &v)) != CLWARP_OK))
				die("buffers", s);
			timed_sort(e, c, pk, k, pv, v, n);   /* build, allocate, warm up */
			if (!sort_flags)
				check_sorted(e, c, k, h, n);
			for (int i = 0; i < r; i++)
				t[i] = timed_sort(e, c, pk, k, pv, v, n);
			ms = bench_median(t, r);
			if (host && !sort_flags && c->value < 0 && !c->nans && !c->total_order)
				host_ms = host_sort_keys(e, c, h, n, k);
			if (host && !sort_flags && c->value >= 0 &&
			    (c->key == CLWARP_TYPE_UINT || c->key == CLWARP_TYPE_ULONG))
				host_ms = host_sort_pairs(e, c, h, hv, n, k, v);
			char pair_label[16];
			const char *type_label = c->float_bits ? "uint-fbits"
						 : c->nans ? "float-nan"
						 : c->total_order ? "float-total" : type_names[c->key];

			/* Values other than uint name their type too ("ulong-ulong"). */
			if (c->value >= 0 && c->value != CLWARP_TYPE_UINT) {
				snprintf(pair_label, sizeof(pair_label), "%s-%s", type_names[c->key],
					 type_names[c->value]);
				type_label = pair_label;
			}

			printf("%-10s %-6s %5d %12.4f %12.1f", c->op, type_label, l, ms,
			       (double)n / ms * 1e-3);
			if (host_ms > 0)
				printf(" %12.1f", (double)n / host_ms * 1e-3);
			printf("\n");
			fflush(stdout);
			if (tsv) {
				fprintf(tsv, "%s\t%s\t%s\t%s\t%zu\t%.6f\t%.3f\n", info->name, backend_name,
					c->op, type_label, n, ms, (double)n / ms * 1e-3);
				if (host_ms > 0)
					fprintf(tsv, "%s\thost\t%s\t%s\t%zu\t%.6f\t%.3f\n", info->name,
						c->op, type_label, n, host_ms, (double)n / host_ms * 1e-3);
			}
			clReleaseMemObject(pk);
			clReleaseMemObject(k);
			if (pv) {
				clReleaseMemObject(pv);
				clReleaseMemObject(v);
			}
			free(h);
			free(hv);
			free(t);
		}
	}
	if (tsv)
		fclose(tsv);
	clwarp_engine_free(e);
	return 0;
}
