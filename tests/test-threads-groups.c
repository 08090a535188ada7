/* Thread stress for device groups: several threads, each with a group of
 * its own on the same devices, at once: making the group, building a group
 * program (one source alike for all threads, one of the thread's own),
 * launching a group kernel, and running group algorithms (reduce, scan,
 * unique, histogram, sort), every value checked against the host; then a
 * group call that fails, whose thread-local error must stay the thread's
 * own. A group and what it made are used by one thread at a time
 * (docs/thread-safety.md); different groups need no coordination.
 * Devices as group-testutil.h says. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>

#include "group-testutil.h"

#define THREADS 3
#define ROUNDS 3

static const char shared_source[] =
	"kernel void twice_plus(global int *x, int k)\n"
	"{ size_t i = get_global_id(0) - get_global_offset(0); x[i] = x[i] * 2 + k + (int)get_global_id(0); }\n";

/* %d: the thread. */
static const char own_source_fmt[] =
	"kernel void own_t%d(global int *x) { size_t i = get_global_id(0) - get_global_offset(0); x[i] -= %d; }\n";

struct gworker {
	int id;
	bool ok;
	char why[1024];
	unsigned long calls;
	pthread_barrier_t *barrier;
};

static bool __attribute__((format(printf, 2, 3)))
give_up(struct gworker *w, const char *fmt, ...)
{
	va_list ap;

	if (w->ok) {
		va_start(ap, fmt);
		vsnprintf(w->why, sizeof(w->why), fmt, ap);
		va_end(ap);
		w->ok = false;
	}
	return false;
}

#define GCALL(w, expr)                                                                    \
	do {                                                                              \
		clwarp_status s_ = (expr);                                                \
		if (s_ != CLWARP_OK)                                                      \
			return give_up((w), "line %d: %s: %s (%s)", __LINE__, #expr,         \
				    clwarp_status_name(s_), clwarp_last_error());       \
		(w)->calls++;                                                             \
	} while (0)
#define GCHECK(w, cond, ...)                                                              \
	do {                                                                              \
		if (!(cond))                                                              \
			return give_up((w), __VA_ARGS__);                                    \
	} while (0)

/* The two group programs, and a launch of each over the thread's data. */
static bool
group_kernels(struct gworker *w, clwarp_group *g, int round, const size_t *offsets, cl_mem *bufs,
	      cl_int *host, size_t n)
{
	clwarp_group_program *shared = NULL, *own = NULL;
	clwarp_group_kernel *k = NULL, *ko = NULL;
	clwarp_build_info info;
	char text[256], name[32];
	cl_int add = w->id * 100 + round, *got = malloc(n * sizeof(cl_int));
	bool ok;

	GCHECK(w, got, "out of memory");
	snprintf(text, sizeof(text), own_source_fmt, w->id, w->id + 1);
	snprintf(name, sizeof(name), "own_t%d", w->id);
	ok = clwarp_group_program_build_source(g, shared_source, "shared.cl", NULL, &shared, &info) == CLWARP_OK &&
	     clwarp_group_program_build_source(g, text, "own.cl", NULL, &own, NULL) == CLWARP_OK &&
	     clwarp_group_kernel_new(shared, "twice_plus", &k) == CLWARP_OK &&
	     clwarp_group_kernel_new(own, name, &ko) == CLWARP_OK &&
	     clwarp_group_kernel_set_arg_buffers(k, 0, bufs) == CLWARP_OK &&
	     clwarp_group_kernel_set_arg_scalar(k, 1, sizeof(add), &add) == CLWARP_OK &&
	     clwarp_group_kernel_set_arg_buffers(ko, 0, bufs) == CLWARP_OK &&
	     clwarp_group_launch(k, offsets, 0) == CLWARP_OK && clwarp_group_launch(ko, offsets, 0) == CLWARP_OK &&
	     clwarp_group_gather(g, bufs, got, offsets, sizeof(cl_int)) == CLWARP_OK;
	if (!ok)
		give_up(w, "round %d: group program or launch: %s", round, clwarp_last_error());
	for (size_t i = 0; ok && i < n; i++) {
		host[i] = host[i] * 2 + add + (cl_int)i - (w->id + 1);
		if (got[i] != host[i])
			ok = give_up(w, "round %d: launch element %zu is %d, want %d", round, i, got[i], host[i]);
	}
	w->calls += 8;
	clwarp_build_info_free(&info);
	clwarp_group_kernel_free(k);
	clwarp_group_kernel_free(ko);
	free(got);
	return ok;
}

/* Reduce (add), inclusive scan and histogram of the thread's data. */
static bool
group_sums(struct gworker *w, clwarp_group *g, int round, const size_t *offsets, cl_mem *bufs,
	   const cl_int *host, size_t n)
{
	cl_int sum = 0, want = 0, lo = -2000, hi = 2000;
	cl_uint counts[8], want_counts[8] = { 0 };
	cl_int *got = malloc(n * sizeof(cl_int));

	GCHECK(w, got, "out of memory");
	for (size_t i = 0; i < n; i++) {
		want = (cl_int)((cl_uint)want + (cl_uint)host[i]);
		if (host[i] >= lo && host[i] < hi)
			want_counts[(size_t)(host[i] - lo) * 8 / (size_t)(hi - lo)]++;
	}
	GCALL(w, clwarp_group_reduce(g, CLWARP_TYPE_INT, bufs, &sum, offsets, CLWARP_OP_ADD));
	GCHECK(w, sum == want, "round %d: reduce %d, want %d", round, sum, want);
	GCALL(w, clwarp_group_histogram(g, CLWARP_TYPE_INT, bufs, counts, offsets, 8, &lo, &hi));
	for (size_t b = 0; b < 8; b++)
		GCHECK(w, counts[b] == want_counts[b], "round %d: bin %zu counts %u, want %u", round, b,
		       counts[b], want_counts[b]);
	GCALL(w, clwarp_group_scan(g, CLWARP_TYPE_INT, bufs, bufs, offsets, CLWARP_OP_ADD,
				   CLWARP_SCAN_INCLUSIVE));
	GCALL(w, clwarp_group_gather(g, bufs, got, offsets, sizeof(cl_int)));
	want = 0;
	for (size_t i = 0; i < n; i++) {
		want = (cl_int)((cl_uint)want + (cl_uint)host[i]);
		if (got[i] != want) {
			cl_int at = got[i];

			free(got);
			return give_up(w, "round %d: scan element %zu is %d, want %d", round, i, at, want);
		}
	}
	free(got);
	return true;
}

/* Unique of keys in runs (that cross the slices), and a sort of them. */
static bool
group_keys(struct gworker *w, clwarp_group *g, int round, const size_t *offsets, size_t n)
{
	cl_uint *keys = malloc(n * sizeof(cl_uint)), *got = malloc(n * sizeof(cl_uint));
	cl_mem in[CLWARP_GROUP_MAX_DEVICES], out[CLWARP_GROUP_MAX_DEVICES] = { 0 };
	size_t out_offsets[CLWARP_GROUP_MAX_DEVICES + 1], runs = 0;
	bool ok = keys && got;

	for (size_t i = 0; ok && i < n; i++)
		keys[i] = (cl_uint)((i / (size_t)(5 + w->id + round)) * 2654435761u % 1000u);
	ok = ok && clwarp_group_scatter(g, keys, in, offsets, 4) == CLWARP_OK;
	ok = ok && clwarp_group_scatter(g, keys, out, offsets, 4) == CLWARP_OK;
	ok = ok && clwarp_group_unique(g, CLWARP_TYPE_UINT, in, out, out_offsets, offsets) == CLWARP_OK;
	ok = ok && clwarp_group_gather(g, out, got, out_offsets, 4) == CLWARP_OK;
	if (!ok)
		give_up(w, "round %d: unique: %s", round, clwarp_last_error());
	for (size_t i = 0; ok && i < n; i++)
		if (i == 0 || keys[i] != keys[i - 1])
			if (runs >= out_offsets[clwarp_group_size(g)] || got[runs++] != keys[i])
				ok = give_up(w, "round %d: unique key %zu is wrong", round, runs - 1);
	if (ok && runs != out_offsets[clwarp_group_size(g)])
		ok = give_up(w, "round %d: %zu unique keys, want %zu", round,
			  out_offsets[clwarp_group_size(g)], runs);
	clwarp_group_buffers_free(g, out);
	if (ok && (clwarp_group_sort_keys(g, CLWARP_TYPE_UINT, in, out, out_offsets, offsets, 0) != CLWARP_OK ||
		   clwarp_group_gather(g, out, got, out_offsets, 4) != CLWARP_OK))
		ok = give_up(w, "round %d: sort: %s", round, clwarp_last_error());
	for (size_t i = 1; ok && i < n; i++)
		if (got[i - 1] > got[i])
			ok = give_up(w, "round %d: sorted keys %zu and %zu out of order", round, i - 1, i);
	w->calls += 7;
	clwarp_group_buffers_free(g, in);
	clwarp_group_buffers_free(g, out);
	free(keys);
	free(got);
	return ok;
}

/* A group call that fails with a message naming the thread's offsets;
 * after every thread has failed too, the message is still its own. */
static bool
own_error(struct gworker *w, clwarp_group *g, cl_mem *bufs)
{
	size_t bad[CLWARP_GROUP_MAX_DEVICES + 1] = { (size_t)w->id + 1 };
	char mine[128], got[1024];
	cl_int sum;

	snprintf(mine, sizeof(mine), "offsets[0] is %d", w->id + 1);
	if (g)
		clwarp_group_reduce(g, CLWARP_TYPE_INT, bufs, &sum, bad, CLWARP_OP_ADD);
	snprintf(got, sizeof(got), "%s", clwarp_last_error());
	/* Every thread gets here, failed or not: the others wait. */
	pthread_barrier_wait(w->barrier);
	if (!g || !w->ok)
		return false;
	GCHECK(w, strstr(got, mine) && strcmp(got, clwarp_last_error()) == 0,
	       "error state \"%s\", then \"%s\", want \"%s\"", got, clwarp_last_error(), mine);
	return true;
}

static void *
worker_main(void *arg)
{
	struct gworker *w = arg;
	size_t offsets[CLWARP_GROUP_MAX_DEVICES + 1];
	clwarp_group *g = NULL;

	/* Every thread makes its group at once. */
	if (clwarp_group_new(NULL, NULL, &g) != CLWARP_OK)
		give_up(w, "clwarp_group_new: %s", clwarp_last_error());
	for (int round = 0; round < ROUNDS; round++) {
		size_t n = 3000 + 517 * (size_t)(w->id + round);
		cl_int *host = malloc(n * sizeof(cl_int));
		cl_mem bufs[CLWARP_GROUP_MAX_DEVICES] = { 0 };
		uint32_t state = (uint32_t)(w->id * 7919 + round + 1);

		for (size_t i = 0; host && i < n; i++)
			host[i] = (cl_int)(next_random(&state) % 3001) - 1500;
		if (w->ok && (!host || clwarp_group_split(g, n, 1, offsets) != CLWARP_OK ||
			      clwarp_group_scatter(g, host, bufs, offsets, sizeof(cl_int)) != CLWARP_OK))
			give_up(w, "round %d: data: %s", round, clwarp_last_error());
		if (w->ok && group_kernels(w, g, round, offsets, bufs, host, n) &&
		    group_sums(w, g, round, offsets, bufs, host, n))
			group_keys(w, g, round, offsets, n);
		own_error(w, w->ok ? g : NULL, bufs);
		clwarp_group_buffers_free(g, bufs);
		free(host);
	}
	clwarp_group_free(g);
	return NULL;
}

START_TEST(test_threads_groups)
{
	struct gworker workers[THREADS];
	pthread_t ids[THREADS];
	pthread_barrier_t barrier;
	unsigned long calls = 0;

	ck_assert_int_eq(pthread_barrier_init(&barrier, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++) {
		workers[i] = (struct gworker){ .id = i, .ok = true, .barrier = &barrier };
		ck_assert_int_eq(pthread_create(&ids[i], NULL, worker_main, &workers[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_join(ids[i], NULL), 0);
	pthread_barrier_destroy(&barrier);
	for (int i = 0; i < THREADS; i++) {
		ck_assert_msg(workers[i].ok, "thread %d: %s", i, workers[i].why);
		calls += workers[i].calls;
	}
	printf("threads, groups: %d threads x %d rounds, a group each: %lu group calls; every value checked\n",
	       THREADS, ROUNDS, calls);
}
END_TEST

static void
add_tests(TCase *tc)
{
	ADD_TEST(tc, test_threads_groups);
}

int
main(void)
{
	return group_test_main("threads-groups", add_tests);
}
