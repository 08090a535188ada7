/* What every part of algorithms-bench uses: fatal errors, memory, the clock,
 * medians, and the input data with the bytes each operation must move. */
/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

#include "algorithms-bench.h"

const char *progname = "algorithms-bench";

PRINTF_LIKE(1, 2) void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void
die_status(clwarp_status s, const char *what)
{
	const char *msg = clwarp_last_error();

	die("%s: %s%s%s", what, clwarp_status_name(s), *msg ? ": " : "", msg);
}

void *
xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p)
		die("out of host memory (%zu bytes)", bytes);
	return p;
}

double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
median(double *v, int count)
{
	qsort(v, (size_t)count, sizeof(*v), cmp_double);
	return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

const char *
type_name(clwarp_type t)
{
	return t == CLWARP_TYPE_INT ? "int" : "float";
}

/* ------------------------------------------------------------------ data */

#define DATA_SEED 0x2545F4914F6CDD1Dull

static uint64_t
rng_next(uint64_t *s)
{
	/* xorshift64*: the same stream as bench/cub-bench.cu. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

void
make_data(size_t n, float **f, int32_t **i)
{
	uint64_t s = DATA_SEED;

	*f = xmalloc(n * sizeof(float));
	*i = xmalloc(n * sizeof(int32_t));
	for (size_t j = 0; j < n; j++) {
		int32_t k = (int32_t)(rng_next(&s) >> 55) - 256; /* 9 bits: [-256, 255] */
		(*i)[j] = k;
		(*f)[j] = (float)k / 256.0f;
	}
}

/* The bytes an operation must move at the least, per the table headers. */
double
bytes_moved(const struct bench_case *c, size_t n, size_t selected)
{
	double e = 4.0;

	switch (c->kind) {
	case KIND_REDUCE:
		return e * (double)n;
	case KIND_SCAN:
	case KIND_SOFTMAX:
	case KIND_SEGSCAN:
	case KIND_PARTITION:
	case KIND_PARTITION_REVERSED:
		return 2.0 * e * (double)n;
	case KIND_COMPACT:
		return e * ((double)n + (double)selected);
	case KIND_SEGREDUCE:
		return e * ((double)n + (double)(n / c->row));
	}
	return 0;
}
