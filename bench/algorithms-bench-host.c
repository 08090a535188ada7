/* algorithms-bench's host loops: plain C versions of each operation, the
 * CPU's own figure beside the device's on CPU devices. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include "algorithms-bench.h"

/* Keeps the compiler from dropping a host loop whose result is unused. */
static volatile double host_sink;

static void
host_once(const struct bench_case *c, size_t n, const float *xf, const int32_t *xi, void *out,
          size_t *selected)
{
	float *of = out;
	int32_t *oi = out;

	switch (c->kind) {
	case KIND_REDUCE:
		if (c->type == CLWARP_TYPE_INT) {
			uint32_t s = 0;
			for (size_t j = 0; j < n; j++)
				s += (uint32_t)xi[j];
			host_sink = s;
		} else if (c->combine == CLWARP_OP_ADD) {
			float s = 0;
			for (size_t j = 0; j < n; j++)
				s += xf[j];
			host_sink = s;
		} else {
			float s = c->combine == CLWARP_OP_MIN ? INFINITY : -INFINITY;
			for (size_t j = 0; j < n; j++)
				s = c->combine == CLWARP_OP_MIN ? fminf(s, xf[j]) : fmaxf(s, xf[j]);
			host_sink = s;
		}
		break;
	case KIND_SCAN:
		if (c->type == CLWARP_TYPE_INT) {
			uint32_t s = 0;
			for (size_t j = 0; j < n; j++) {
				uint32_t v = (uint32_t)xi[j];
				oi[j] = (int32_t)(c->inclusive ? (s += v) : s);
				if (!c->inclusive)
					s += v;
			}
		} else {
			float s = 0;
			for (size_t j = 0; j < n; j++) {
				float v = xf[j];
				of[j] = c->inclusive ? (s += v) : s;
				if (!c->inclusive)
					s += v;
			}
		}
		host_sink = of[n - 1];
		break;
	case KIND_COMPACT:
	case KIND_PARTITION:
	case KIND_PARTITION_REVERSED: {
		size_t m = 0, r = n;
		for (size_t j = 0; j < n; j++) {
			if (xf[j] > c->above)
				of[m++] = xf[j];
			else if (c->kind != KIND_COMPACT)
				of[--r] = xf[j];  /* reversed, as CUB's DevicePartition::If leaves them */
		}
		*selected = m;
		host_sink = (double)m;
		break;
	}
	case KIND_SEGREDUCE:
		for (size_t r = 0; r < n / c->row; r++) {
			const float *x = xf + r * c->row;
			float s = 0;
			for (size_t j = 0; j < c->row; j++)
				s += x[j];
			of[r] = s;
		}
		host_sink = of[0];
		break;
	case KIND_SOFTMAX:
		for (size_t r = 0; r < n / c->row; r++) {
			const float *x = xf + r * c->row;
			float *y = of + r * c->row, mx = -INFINITY, s = 0;
			for (size_t j = 0; j < c->row; j++)
				mx = fmaxf(mx, x[j]);
			for (size_t j = 0; j < c->row; j++)
				s += y[j] = expf(x[j] - mx);
			for (size_t j = 0; j < c->row; j++)
				y[j] /= s;
		}
		host_sink = of[0];
		break;
	case KIND_SEGSCAN:
		for (size_t r = 0; r < n / c->row; r++) {
			const float *x = xf + r * c->row;
			float *y = of + r * c->row, s = 0;
			for (size_t j = 0; j < c->row; j++) {
				float v = x[j];
				y[j] = c->inclusive ? (s += v) : s;
				if (!c->inclusive)
					s += v;
			}
		}
		host_sink = of[n - 1];
		break;
	}
}

struct result
measure_host(const struct options *opt, const struct bench_case *c, size_t n, const float *xf,
             const int32_t *xi, void *out)
{
	struct result res = {MS_NOT_RUN, 0, 0, TIMING_WALL, 0};
	size_t selected = 0;
	double t0, one, *times;
	int reps;

	if (c->row && n < c->row)
		return res;
	host_once(c, n, xf, xi, out, &selected); /* warm the caches and pages */
	t0 = now_s();
	host_once(c, n, xf, xi, out, &selected);
	one = now_s() - t0;
	reps = reps_for(opt, n, one);
	times = xmalloc((size_t)reps * sizeof(*times));
	for (int r = 0; r < reps; r++) {
		t0 = now_s();
		host_once(c, n, xf, xi, out, &selected);
		times[r] = now_s() - t0;
	}
	res.ms = res.wall_ms = median(times, reps) * 1e3;
	res.gbps = bytes_moved(c, n, selected) / (res.ms * 1e-3) / 1e9;
	free(times);
	progress("host", c->op, type_name(c->type), n, res);
	return res;
}
