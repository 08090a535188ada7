/* algorithms-bench's checks: each result read back and compared with a
 * host reference before it is timed. */
/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>

#include "algorithms-bench.h"

PRINTF_LIKE(4, 5) void
wrong(const struct bench *b, const struct bench_case *c, size_t n, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: WRONG RESULT from backend %s, %s %s, n = %zu: ", progname, b->backend,
	        c->op, type_name(c->type), n);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
read_back(struct bench *b, cl_mem buf, size_t bytes, void *dst)
{
	clwarp_status s = clwarp_buffer_read(b->engine, buf, 0, bytes, dst);

	if (s != CLWARP_OK)
		die_status(s, "reading a result back");
}

/*
 * Float tolerances. With this data the sums are exact in practice; the
 * slack allows the rounding an honest float reduction could still do
 * (partial sums beyond 2^16) while a lost or doubled element, which moves
 * a sum by up to 1, is still caught in almost every case.
 */
static double
sum_tolerance(double sum, double abs_sum)
{
	return 0.05 + 1e-5 * fabs(sum) + 1e-8 * abs_sum;
}

static int
check_reduce(struct bench *b, const struct bench_case *c, size_t n)
{
	if (c->type == CLWARP_TYPE_INT) {
		uint32_t want = 0;
		int32_t got;

		read_back(b, b->small, sizeof(got), &got);
		for (size_t j = 0; j < n; j++) /* wraps like the device's int */
			want += (uint32_t)b->host_i[j];
		if ((uint32_t)got != want) {
			wrong(b, c, n, "got %" PRId32 ", expected %" PRId32, got, (int32_t)want);
			return -1;
		}
	} else if (c->combine == CLWARP_OP_ADD) {
		double want = 0, abs_sum = 0;
		float got;

		read_back(b, b->small, sizeof(got), &got);
		for (size_t j = 0; j < n; j++) {
			want += b->host_f[j];
			abs_sum += fabs(b->host_f[j]);
		}
		if (!(fabs(got - want) <= sum_tolerance(want, abs_sum))) {
			wrong(b, c, n, "got %.9g, expected %.9g", got, want);
			return -1;
		}
	} else {
		float want = c->combine == CLWARP_OP_MIN ? INFINITY : -INFINITY, got;

		read_back(b, b->small, sizeof(got), &got);
		for (size_t j = 0; j < n; j++)
			want = c->combine == CLWARP_OP_MIN ? fminf(want, b->host_f[j])
			                                   : fmaxf(want, b->host_f[j]);
		if (got != want) {
			wrong(b, c, n, "got %.9g, expected %.9g", got, want);
			return -1;
		}
	}
	return 0;
}

static int
check_scan(struct bench *b, const struct bench_case *c, size_t n)
{
	read_back(b, b->out, n * 4, b->got);
	if (c->type == CLWARP_TYPE_INT) {
		const int32_t *got = b->got;
		uint32_t run = 0;

		for (size_t j = 0; j < n; j++) {
			uint32_t before = run;

			run += (uint32_t)b->host_i[j];
			if ((uint32_t)got[j] != (c->inclusive ? run : before)) {
				wrong(b, c, n, "element %zu is %" PRId32 ", expected %" PRId32, j, got[j],
				      (int32_t)(c->inclusive ? run : before));
				return -1;
			}
		}
	} else {
		const float *got = b->got;
		double run = 0, abs_run = 0;

		for (size_t j = 0; j < n; j++) {
			double before = run;

			run += b->host_f[j];
			abs_run += fabs(b->host_f[j]);
			double want = c->inclusive ? run : before;
			if (!(fabs(got[j] - want) <= sum_tolerance(want, abs_run))) {
				wrong(b, c, n, "element %zu is %.9g, expected %.9g", j, got[j], want);
				return -1;
			}
		}
	}
	return 0;
}

/* Compaction: the selected elements in order; partition: then the rejected ones, in order too;
 * reversed partition: the rejected ones from the end backwards (rejected element r at n - 1 - r). */
static int
check_select(struct bench *b, const struct bench_case *c, size_t n)
{
	const float *got = b->got;
	cl_uint count;
	size_t m = 0, r = 0;

	read_back(b, b->small, sizeof(count), &count);
	for (size_t j = 0; j < n; j++)
		m += b->host_f[j] > c->above;
	if (count != m) {
		wrong(b, c, n, "count %u, expected %zu", (unsigned)count, m);
		return -1;
	}
	read_back(b, b->out, (c->kind == KIND_COMPACT ? m : n) * 4, b->got);
	m = 0;
	for (size_t j = 0; j < n; j++) {
		if (b->host_f[j] > c->above) {
			if (got[m] != b->host_f[j]) {
				wrong(b, c, n, "selected element %zu is %.9g, expected %.9g (input %zu)", m,
				      got[m], b->host_f[j], j);
				return -1;
			}
			m++;
		} else if (c->kind != KIND_COMPACT) {
			size_t at = c->kind == KIND_PARTITION ? count + r : n - 1 - r;

			if (got[at] != b->host_f[j]) {
				wrong(b, c, n, "rejected element %zu is %.9g, expected %.9g (input %zu)", r,
				      got[at], b->host_f[j], j);
				return -1;
			}
			r++;
		}
	}
	b->selected = m;
	return 0;
}

static int
check_segreduce(struct bench *b, const struct bench_case *c, size_t n)
{
	const float *got = b->got;
	size_t rows = n / c->row;

	read_back(b, b->out, rows * 4, b->got);
	for (size_t r = 0; r < rows; r++) {
		double want = 0, abs_sum = 0;

		for (size_t j = r * c->row; j < (r + 1) * c->row; j++) {
			want += b->host_f[j];
			abs_sum += fabs(b->host_f[j]);
		}
		if (!(fabs(got[r] - want) <= 1e-3 + 1e-6 * abs_sum)) {
			wrong(b, c, n, "row %zu sums to %.9g, expected %.9g", r, got[r], want);
			return -1;
		}
	}
	return 0;
}

static int
check_softmax(struct bench *b, const struct bench_case *c, size_t n)
{
	const float *got = b->got;
	size_t rows = n / c->row;

	read_back(b, b->out, n * 4, b->got);
	for (size_t r = 0; r < rows; r++) {
		const float *x = b->host_f + r * c->row;
		double mx = -INFINITY, sum = 0;

		for (size_t j = 0; j < c->row; j++)
			mx = fmax(mx, x[j]);
		for (size_t j = 0; j < c->row; j++)
			sum += exp(x[j] - mx);
		for (size_t j = 0; j < c->row; j++) {
			double want = exp(x[j] - mx) / sum, g = got[r * c->row + j];

			if (!(fabs(g - want) <= 1e-7 + 1e-4 * want)) {
				wrong(b, c, n, "row %zu element %zu is %.9g, expected %.9g", r, j, g, want);
				return -1;
			}
		}
	}
	return 0;
}

/* Each row scanned on its own in double, with scan's tolerance on the row's running sums. */
static int
check_segscan(struct bench *b, const struct bench_case *c, size_t n)
{
	const float *got = b->got;
	size_t rows = n / c->row;

	read_back(b, b->out, rows * c->row * 4, b->got);
	for (size_t r = 0; r < rows; r++) {
		double run = 0, abs_run = 0;

		for (size_t j = r * c->row; j < (r + 1) * c->row; j++) {
			double before = run, want;

			run += b->host_f[j];
			abs_run += fabs(b->host_f[j]);
			want = c->inclusive ? run : before;
			if (!(fabs(got[j] - want) <= sum_tolerance(want, abs_run))) {
				wrong(b, c, n, "row %zu element %zu is %.9g, expected %.9g", r,
				      j - r * c->row, got[j], want);
				return -1;
			}
		}
	}
	return 0;
}

int
check(struct bench *b, const struct bench_case *c, size_t n)
{
	switch (c->kind) {
	case KIND_REDUCE:
		return check_reduce(b, c, n);
	case KIND_SCAN:
		return check_scan(b, c, n);
	case KIND_COMPACT:
	case KIND_PARTITION:
	case KIND_PARTITION_REVERSED:
		return check_select(b, c, n);
	case KIND_SEGREDUCE:
		return check_segreduce(b, c, n);
	case KIND_SOFTMAX:
		return check_softmax(b, c, n);
	case KIND_SEGSCAN:
		return check_segscan(b, c, n);
	}
	return -1;
}
