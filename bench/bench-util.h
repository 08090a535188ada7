/* What the benchmarks share, C and CUDA alike: random data, medians and the clock. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_BENCH_UTIL_H
#define CLWARP_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline uint64_t
bench_splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline int
bench_by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0 .. n-1] (sorts v). */
static inline double
bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), bench_by_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Seconds on the monotonic clock. */
static inline double
bench_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Microseconds on the monotonic clock. */
static inline double
bench_now_us(void)
{
	return bench_now_s() * 1e6;
}

/* The options of every size sweep: --min-log2 N, --max-log2 N, --reps R
 * (at least 1) and --tsv FILE. Returns 1 when option a (with value v) is one
 * of them and stores it, else 0. */
static inline int
bench_sweep_option(const char *a, const char *v, int *min_log2, int *max_log2, int *reps,
		   const char **tsv_path)
{
	if (!strcmp(a, "--min-log2"))
		*min_log2 = atoi(v);
	else if (!strcmp(a, "--max-log2"))
		*max_log2 = atoi(v);
	else if (!strcmp(a, "--reps"))
		*reps = atoi(v) > 0 ? atoi(v) : 1;
	else if (!strcmp(a, "--tsv"))
		*tsv_path = v;
	else
		return 0;
	return 1;
}

/* A size in bytes with an optional K, M or G suffix (powers of 1024), at
 * least 4096: 0, else -1. */
static inline int
bench_parse_size(const char *text, size_t *out)
{
	char *end;
	unsigned long long v;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	v = strtoull(text, &end, 10);
	if (*end == 'K' || *end == 'k')
		v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		v <<= 20, end++;
	else if (*end == 'G' || *end == 'g')
		v <<= 30, end++;
	if (*end != '\0' || v < 4096)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* Whether `name` is one of the comma-separated names of `list`. */
static inline int
bench_in_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, len) && (p[len] == ',' || p[len] == '\0'))
			return 1;
	return 0;
}

/* ---- hist-rle-bench.c and cub-hist-rle-bench.cu: the same cases and data on both sides. */

enum bench_hr_kind { BENCH_HIST, BENCH_RLE, BENCH_RBK, BENCH_UNIQUE };

/* Histograms of uint samples uniform in [0, 2^24) with 256, 1024 and 4096
 * bins (bin widths powers of two), of uint samples in [0, 10^6) with 256
 * bins (a width that is not a whole number), of float samples in [0, 1)
 * with 256 bins, uniform and sorted (each bin's samples side by side, as
 * in data that arrives in order); run-length encoding and reduce by key (uint values
 * summed) of uint keys in runs of 1, 4 and 64 on average, unique of keys
 * in runs of 4. */
static const struct bench_hr_case {
	const char *op, *type;
	enum bench_hr_kind kind;
	unsigned param;   /* bins, or the mean run length */
	uint32_t range;   /* uint samples: [0, range); 0: float samples in [0, 1) */
	bool sorted;      /* float samples in ascending order */
} bench_hr_cases[] = {
	{ "hist256", "uint", BENCH_HIST, 256, 1u << 24, false },
	{ "hist1024", "uint", BENCH_HIST, 1024, 1u << 24, false },
	{ "hist4096", "uint", BENCH_HIST, 4096, 1u << 24, false },
	{ "hist256odd", "uint", BENCH_HIST, 256, 1000000, false },
	{ "hist256", "float", BENCH_HIST, 256, 0, false },
	{ "hist256sorted", "float", BENCH_HIST, 256, 0, true },
	{ "rle1", "uint", BENCH_RLE, 1, 0, false },
	{ "rle4", "uint", BENCH_RLE, 4, 0, false },
	{ "rle64", "uint", BENCH_RLE, 64, 0, false },
	{ "rbk1", "uint", BENCH_RBK, 1, 0, false },
	{ "rbk4", "uint", BENCH_RBK, 4, 0, false },
	{ "rbk64", "uint", BENCH_RBK, 64, 0, false },
	{ "unique4", "uint", BENCH_UNIQUE, 4, 0, false },
};
#define BENCH_HR_CASES (sizeof(bench_hr_cases) / sizeof(bench_hr_cases[0]))

/* Histogram samples: uint uniform in [0, range), float uniform in [0, 1),
 * or float in [0, 1) ascending; every float is k / 2^24. */
static inline void
bench_hist_uint(uint32_t *out, size_t n, uint32_t range, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (uint32_t)(bench_splitmix(&seed) % range);
}

static inline void
bench_hist_float(float *out, size_t n, bool sorted, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t k = sorted ? (uint64_t)i * (1u << 24) / n : bench_splitmix(&seed) >> 40;

		out[i] = (float)((double)k * 0x1p-24);
	}
}

/* Keys in runs of random length 1 .. 2 * avg - 1 (mean avg), each run's key
 * one more than the last; returns the number of runs. */
static inline size_t
bench_rle_keys(uint32_t *out, size_t n, unsigned avg, uint64_t seed)
{
	size_t i = 0, runs = 0;

	while (i < n) {
		size_t len = 1 + (size_t)(bench_splitmix(&seed) % (2 * avg - 1));

		for (size_t j = 0; j < len && i < n; j++)
			out[i++] = (uint32_t)runs;
		runs++;
	}
	return runs;
}

/* Reduce by key's values: a hash of the index. */
static inline uint32_t
bench_rbk_value(size_t i)
{
	return (uint32_t)i * 2654435761u;
}

#endif
