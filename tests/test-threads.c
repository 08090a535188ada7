/* Thread stress: several threads build, look up, launch, read and run
 * algorithms at once, every result checked against the host. Here: each
 * thread's rounds, and the case where all share ONE engine
 * (test-threads-engines.c: an engine per thread). CI runs it under
 * ThreadSanitizer (docs/reliability-threads.md). */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdint.h>

#include "threads-testutil.h"

/*
 * Each thread, in each round, with buffers and kernel objects of its own:
 * asks for the backend (the first calls race to resolve it), the native
 * flag, the device info and the device list; builds a source alike for all
 * threads with -DADD=<round % 3> (rounds 0-2: all ask for one new program
 * at once; ADD=0 is on disk already), one of its own that #includes
 * common.h through -I, and the files shared.cl (alike for all, on disk) and
 * tN.cl of its own, which #include common.h next to them; looks up every
 * kernel anew and a missing one; launches blocking, with an event and
 * enqueued; runs clwarp_reduce, clwarp_scan and clwarp_sort_keys on a few
 * hundred ints; then sets an error of its own, waits until every thread
 * has, and checks that the error state is still its own.
 * CLWARP_TEST_THREADS (default 6) and CLWARP_TEST_THREAD_ROUNDS (default
 * 6) change the load.
 */

static const char common_h[] = "#define COMMON_K 17\n#define MIX(x) ((x) * 5 - 3)\n";

static const char shared_source[] =
	"kernel void scale(global const int *in, global int *out, int k)\n"
	"{ size_t i = get_global_id(0); out[i] = in[i] * k + ADD; }\n"
	"kernel void wsum(global const int *in, global int *out)\n"
	"{ size_t i = get_global_id(0); out[i] = warp_reduce_add(in[i]) * 1000 + ADD; }\n";

static const char shared_file[] =
	"#include \"common.h\"\n"
	"kernel void fk(global const int *in, global int *out)\n"
	"{ size_t i = get_global_id(0); out[i] = MIX(in[i]) + COMMON_K; }\n";

/* tN.cl; %d: the thread. */
static const char own_file_fmt[] =
	"#include \"common.h\"\n"
	"kernel void fk_own(global int *io) { size_t i = get_global_id(0); io[i] = MIX(io[i]) - 100 * %d; }\n";

/* The thread's string build; both %d: the thread. */
static const char own_source_fmt[] =
	"#include \"common.h\"\n#define TID %d\n"
	"kernel void own_t%d(global int *io) { size_t i = get_global_id(0); io[i] = MIX(io[i]) + TID; }\n";

bool
threads_give_up(struct worker *t, const char *fmt, ...)
{
	va_list ap;

	if (t->ok) {
		va_start(ap, fmt);
		vsnprintf(t->why, sizeof(t->why), fmt, ap);
		va_end(ap);
		t->ok = false;
	}
	return false;
}

bool
threads_same(struct worker *t, const struct round *r, const char *what, size_t n)
{
	for (size_t i = 0; i < n; i++)
		CHECK(t, r->out[i] == r->want[i], "round %d: %s[%zu] = %d, want %d", r->number, what,
		      i, r->out[i], r->want[i]);
	return true;
}

static bool
build(struct worker *t, const char *source, const char *path, const char *name,
      const char *options, clwarp_program **p)
{
	clwarp_build_info info;

	if (source)
		CALL(t, clwarp_program_build_source(t->engine, source, name, options, p, &info));
	else
		CALL(t, clwarp_program_build_file(t->engine, path, options, p, &info));
	t->n[BUILDS]++;
	t->n[info.source == CLWARP_BUILD_COMPILED ? COMPILED
	     : info.source == CLWARP_BUILD_DISK_HIT ? DISK : MEMORY]++;
	clwarp_build_info_free(&info);
	return true;
}

/* The thread's own string build: common.h through -I. */
static bool
own_program(struct worker *t, clwarp_program **p)
{
	char text[512], name[64], options[4200];

	snprintf(text, sizeof(text), own_source_fmt, t->id, t->id);
	snprintf(name, sizeof(name), "own_t%d.cl", t->id);
	snprintf(options, sizeof(options), "-I%s", t->dir);
	return build(t, text, NULL, name, options, p);
}

static bool
queries(struct worker *t)
{
	const clwarp_device_info *info = clwarp_engine_device_info(t->engine);
	clwarp_device_info *list = NULL;
	clwarp_backend b;
	unsigned w = 0;
	size_t count = 0;
	bool found = false;
	int native = -1;

	CALL(t, clwarp_engine_backend(t->engine, &b, &w));
	CHECK(t, t->warp == 0 || (b == t->backend && w == t->warp), "backend changed: %s/%u, then %s/%u",
	      clwarp_backend_name(t->backend), t->warp, clwarp_backend_name(b), w);
	t->backend = b;
	t->warp = w;
	CALL(t, clwarp_engine_backend_native(t->engine, &native));
	CHECK(t, native == 0 || native == 1, "native = %d", native);
	CALL(t, clwarp_device_list_new(&list, &count));
	for (size_t i = 0; i < count; i++)
		found = found || (strcmp(list[i].name, info->name) == 0 &&
				  strcmp(list[i].platform_name, info->platform_name) == 0);
	clwarp_device_list_free(list, count);
	CHECK(t, found, "the engine's device %s is not in the device list", info->name);
	CHECK(t, info->max_work_group_size > 0 && clwarp_engine_queue(t->engine) &&
		 clwarp_engine_context(t->engine), "engine info lost");
	t->n[QUERIES] += 4;
	return true;
}

/* The round's buffers, the four builds, every kernel looked up anew, and a missing one. */
static bool
setup(struct worker *t, struct round *r)
{
	char options[4200], name[64];
	clwarp_kernel *missing = NULL;

	r->in = malloc(r->n * sizeof(int));
	r->out = malloc(r->n * sizeof(int));
	r->want = malloc(r->n * sizeof(int));
	CHECK(t, r->in && r->out && r->want, "out of memory");
	for (size_t i = 0; i < r->n; i++)
		r->in[i] = (int)((i * 37 + (size_t)t->id * 11 + (size_t)r->number) % 101) - 50;
	CALL(t, clwarp_buffer_new(t->engine, CL_MEM_READ_WRITE, r->n * sizeof(int), r->in, &r->bin));
	CALL(t, clwarp_buffer_new(t->engine, CL_MEM_READ_WRITE, r->n * sizeof(int), NULL, &r->bout));
	CALL(t, clwarp_buffer_new(t->engine, CL_MEM_READ_WRITE, sizeof(int), NULL, &r->bres));

	snprintf(options, sizeof(options), "-DADD=%d", r->number % 3);
	if (!build(t, shared_source, NULL, "shared.cl", options, &r->shared) || !own_program(t, &r->own))
		return false;
	snprintf(options, sizeof(options), "%s/shared.cl", t->dir);
	if (!build(t, NULL, options, NULL, NULL, &r->file))
		return false;
	snprintf(options, sizeof(options), "%s/t%d.cl", t->dir, t->id);
	if (!build(t, NULL, options, NULL, NULL, &r->own_file))
		return false;

	snprintf(name, sizeof(name), "own_t%d", t->id);
	CALL(t, clwarp_kernel_new(r->shared, "scale", &r->scale));
	CALL(t, clwarp_kernel_new(r->shared, "wsum", &r->wsum));
	CALL(t, clwarp_kernel_new(r->own, name, &r->own_k));
	CALL(t, clwarp_kernel_new(r->file, "fk", &r->fk));
	CALL(t, clwarp_kernel_new(r->own_file, "fk_own", &r->fk_own));
	CHECK(t, clwarp_kernel_arg_count(r->scale) == 3 && clwarp_kernel_arg_count(r->own_k) == 1,
	      "argument counts %u and %u", clwarp_kernel_arg_count(r->scale),
	      clwarp_kernel_arg_count(r->own_k));
	snprintf(name, sizeof(name), "nope_t%d", t->id);
	CHECK(t, clwarp_kernel_new(r->shared, name, &missing) == CLWARP_ERROR_KERNEL_NOT_FOUND &&
		 !missing && strstr(clwarp_last_error(), name),
	      "looking up %s: \"%s\"", name, clwarp_last_error());
	t->n[LOOKUPS] += 6;
	return true;
}

/* The kernels of setup() on the round's data. */
static bool
launches(struct worker *t, struct round *r)
{
	size_t n = r->n, global = n, local = 64 % t->warp == 0 ? 64 : t->warp;
	int add = r->number % 3, k = t->id + 2;
	cl_event ev = NULL;
	cl_int err;

	/* scale: blocking (its program uses warp functions: a local size). */
	CALL(t, clwarp_kernel_set_arg_buffer(r->scale, 0, r->bin));
	CALL(t, clwarp_kernel_set_arg_buffer(r->scale, 1, r->bout));
	CALL(t, clwarp_kernel_set_arg_scalar(r->scale, 2, sizeof(k), &k));
	CALL(t, clwarp_kernel_launch(r->scale, 1, &global, &local, NULL));
	CALL(t, clwarp_buffer_read(t->engine, r->bout, 0, n * sizeof(int), r->out));
	for (size_t i = 0; i < n; i++)
		r->want[i] = r->in[i] * k + add;
	if (!threads_same(t, r, "scale", n))
		return false;

	/* wsum: warp sums, with an event. */
	CALL(t, clwarp_kernel_set_arg_buffer(r->wsum, 0, r->bin));
	CALL(t, clwarp_kernel_set_arg_buffer(r->wsum, 1, r->bout));
	CALL(t, clwarp_kernel_launch(r->wsum, 1, &global, &local, &ev));
	err = clWaitForEvents(1, &ev);
	clReleaseEvent(ev);
	CHECK(t, err == CL_SUCCESS, "wsum: %s", clwarp_cl_error_name(err));
	CALL(t, clwarp_buffer_read(t->engine, r->bout, 0, n * sizeof(int), r->out));
	for (size_t i = 0; i < n; i++) {
		r->want[i] = 0;
		for (size_t j = i - i % t->warp; j < i - i % t->warp + t->warp; j++)
			r->want[i] += r->in[j];
		r->want[i] = r->want[i] * 1000 + add;
	}
	if (!threads_same(t, r, "wsum", n))
		return false;

	/* own_tN: in place, enqueued twice (without and with a local size), then a blocking read. */
	CALL(t, clwarp_buffer_write(t->engine, r->bout, 0, n * sizeof(int), r->in));
	CALL(t, clwarp_kernel_set_arg_buffer(r->own_k, 0, r->bout));
	CALL(t, clwarp_kernel_enqueue(r->own_k, 1, &global, NULL));
	CALL(t, clwarp_kernel_enqueue(r->own_k, 1, &global, &local));
	CALL(t, clwarp_buffer_read(t->engine, r->bout, 0, n * sizeof(int), r->out));
	for (size_t i = 0; i < n; i++)
		r->want[i] = (r->in[i] * 5 - 3 + t->id) * 5 - 3 + t->id;
	if (!threads_same(t, r, "own", n))
		return false;

	/* The two file builds, one after the other, blocking. */
	CALL(t, clwarp_kernel_set_arg_buffer(r->fk, 0, r->bin));
	CALL(t, clwarp_kernel_set_arg_buffer(r->fk, 1, r->bout));
	CALL(t, clwarp_kernel_launch(r->fk, 1, &global, &local, NULL));
	CALL(t, clwarp_kernel_set_arg_buffer(r->fk_own, 0, r->bout));
	CALL(t, clwarp_kernel_launch(r->fk_own, 1, &global, NULL, NULL));
	CALL(t, clwarp_buffer_read(t->engine, r->bout, 0, n * sizeof(int), r->out));
	for (size_t i = 0; i < n; i++)
		r->want[i] = (r->in[i] * 5 - 3 + 17) * 5 - 3 - 100 * t->id;
	t->n[LAUNCHES] += 6;
	t->n[TRANSFERS] += 5;
	return threads_same(t, r, "fk_own(fk)", n);
}

static void
round_free(struct round *r)
{
	clwarp_kernel *kernels[] = { r->scale, r->wsum, r->own_k, r->fk, r->fk_own };
	cl_mem buffers[] = { r->bin, r->bout, r->bres };

	for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		clwarp_kernel_free(kernels[i]);
	for (size_t i = 0; i < sizeof(buffers) / sizeof(buffers[0]); i++)
		if (buffers[i])
			clReleaseMemObject(buffers[i]);
	free(r->in);
	free(r->out);
	free(r->want);
}

/*
 * An error of the thread's own, whose message names the thread: in round 0
 * a build that fails, then a missing kernel (even threads) or a launch
 * without arguments (odd: with an OpenCL error code). Nothing may call the
 * library between the error and check_own_error(): what needs freeing
 * waits in `e`.
 */
struct own_error {
	char name[64];         /* in the message */
	char msg[1024];        /* clwarp_last_error() right after the error */
	cl_int cl;
	clwarp_kernel *k;
	clwarp_build_info info;
};

static bool
set_own_error(struct worker *t, int round, struct own_error *e)
{
	clwarp_program *p = NULL;
	clwarp_status status;
	size_t global = 64;

	t->n[ERRORS]++;
	if (round == 0) {
		snprintf(e->name, sizeof(e->name), "bad_t%d.cl", t->id);
		status = clwarp_program_build_source(t->engine, "kernel void f(global int *o) { o[0] = ; }",
						     e->name, NULL, &p, &e->info);
		CHECK(t, status == CLWARP_ERROR_BUILD && !p && e->info.log && e->info.log[0],
		      "%s: %s, or no log", e->name, clwarp_status_name(status));
	} else if (!own_program(t, &p)) {
		return false;
	} else if (t->id % 2 == 0) {
		snprintf(e->name, sizeof(e->name), "missing_t%d_r%d", t->id, round);
		status = clwarp_kernel_new(p, e->name, &e->k);
		CHECK(t, status == CLWARP_ERROR_KERNEL_NOT_FOUND, "kernel %s: %s", e->name,
		      clwarp_status_name(status));
	} else {
		snprintf(e->name, sizeof(e->name), "own_t%d", t->id);
		CALL(t, clwarp_kernel_new(p, e->name, &e->k));
		status = clwarp_kernel_launch(e->k, 1, &global, NULL, NULL);
		CHECK(t, status != CLWARP_OK && clwarp_last_cl_error() != CL_SUCCESS,
		      "a launch without arguments: %s, OpenCL error %s", clwarp_status_name(status),
		      clwarp_cl_error_name(clwarp_last_cl_error()));
	}
	snprintf(e->msg, sizeof(e->msg), "%s", clwarp_last_error());
	e->cl = clwarp_last_cl_error();
	CHECK(t, strstr(e->msg, e->name) != NULL, "round %d: the error \"%s\" does not name %s",
	      round, e->msg, e->name);
	return true;
}

/* After every thread set its own: this thread's error is still its own. */
static bool
check_own_error(struct worker *t, int round, const struct own_error *e)
{
	const char *msg = clwarp_last_error();
	cl_int cl = clwarp_last_cl_error();

	CHECK(t, strcmp(msg, e->msg) == 0, "round %d: clwarp_last_error() is \"%s\", not this thread's \"%s\"",
	      round, msg, e->msg);
	CHECK(t, cl == e->cl, "round %d: clwarp_last_cl_error() is %s, not this thread's %s", round,
	      clwarp_cl_error_name(cl), clwarp_cl_error_name(e->cl));
	return true;
}

/*
 * A thread with engines of its own makes one in round 0, then a new one
 * every third round, staggered by thread: engines are created and freed
 * while other threads work on theirs, and all at once at the start and
 * the end. Each new engine starts with an empty memory cache, so it reads
 * what the others stored in the shared disk cache folder.
 */
static bool
renew_engine(struct worker *t, int round)
{
	clwarp_engine *e = NULL;
	cl_command_queue q;

	if (!t->own_engine || (round > 0 && (round + t->id) % 3 != 0))
		return true;
	clwarp_engine_free(t->engine);
	t->engine = NULL;
	if (t->context)
		CALL(t, clwarp_engine_new_from_cl(t->context, t->device, t->queue, &t->options, &e));
	else
		CALL(t, clwarp_engine_new(&t->options, &e));
	t->engine = e;
	t->n[ENGINES]++;
	q = clwarp_engine_queue(e);
	CHECK(t, clwarp_engine_device(e) == t->device, "round %d: the engine is not on the test's device",
	      round);
	CHECK(t, !t->context || clwarp_engine_context(e) == t->context,
	      "round %d: the engine is not on the context it was given", round);
	CHECK(t, t->queue ? q == t->queue : q != NULL, "round %d: the engine's queue is %p, want %s", round,
	      (void *)q, t->queue ? "the shared one" : "one of its own");
	return true;
}

static void *
worker_main(void *arg)
{
	struct worker *t = arg;

	for (int round = 0; round < t->rounds; round++) {
		struct round r = { .number = round, .n = 64 * (size_t)(12 + (t->id + round) % 4) };
		struct own_error e = { 0 };
		bool mine = t->ok && renew_engine(t, round) && queries(t) && setup(t, &r) &&
			    launches(t, &r) && threads_algorithms(t, &r);

		round_free(&r);
		mine = mine && set_own_error(t, round, &e);
		/* Every thread reaches the barrier, failed or not: the others wait there. */
		pthread_barrier_wait(t->barrier);
		if (mine)
			check_own_error(t, round, &e);
		clwarp_kernel_free(e.k);
		clwarp_build_info_free(&e.info);
	}
	if (t->own_engine) {
		clwarp_engine_free(t->engine);
		t->engine = NULL;
	}
	return NULL;
}

static int
env_int(const char *name, int fallback, int lo, int hi)
{
	int x = getenv(name) && *getenv(name) ? atoi(getenv(name)) : fallback;

	return x < lo ? lo : x > hi ? hi : x;
}

/* dir/name with `text`, replacing the file whole: a reader in another
 * run sees the old file or the new one, never a partial one. A file that
 * holds the text already is left alone, so that its time stamps (part of
 * a build's key) do not change under another run. */
static void
write_whole(const char *dir, const char *name, const char *text)
{
	char tmp[4200], path[4200], old[1024];
	size_t len = strlen(text), got = 0;
	int fd;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (len < sizeof(old) && (f = fopen(path, "r"))) {
		got = fread(old, 1, sizeof(old), f);
		fclose(f);
		if (got == len && memcmp(old, text, len) == 0)
			return;
	}
	fd = mkstemp(tmp);
	ck_assert_msg(fd >= 0, "cannot write %s: %s", tmp, strerror(errno));
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(rename(tmp, path) == 0, "cannot rename %s: %s", tmp, strerror(errno));
}

void
threads_case_setup(struct threads_case *c)
{
	char path[4200], name[64], text[512];
	clwarp_program *p;

	c->threads = env_int("CLWARP_TEST_THREADS", 6, 2, MAX_THREADS);
	c->rounds = env_int("CLWARP_TEST_THREAD_ROUNDS", 6, 1, 1000);
	c->dir = test_tmpdir();
	/* Under meson test the include folder's path is the same in every case
	 * and run: PoCL's cache keys on the preprocessed source, whose line
	 * markers name the headers, so a fresh folder makes each -I build a
	 * full compile (3-4 s, not 0.2 s). The disk cache folder is fresh.
	 * Runs side by side (meson test --repeat, other cases) share it: its
	 * files are replaced whole (rename), never removed, and hold the same
	 * text in every run. */
	c->inc_shared = getenv("CLWARP_TEST_TMPDIR") && *getenv("CLWARP_TEST_TMPDIR");
	if (c->inc_shared)
		snprintf(c->inc, sizeof(c->inc), "%s/threads-inc", getenv("CLWARP_TEST_TMPDIR"));
	else
		snprintf(c->inc, sizeof(c->inc), "%s/inc", c->dir);
	mkdir(c->inc, 0700);
	write_whole(c->inc, "common.h", common_h);
	write_whole(c->inc, "shared.cl", shared_file);
	for (int i = 0; i < c->threads; i++) {
		snprintf(name, sizeof(name), "t%d.cl", i);
		snprintf(text, sizeof(text), own_file_fmt, i);
		write_whole(c->inc, name, text);
	}
	/* A fresh disk cache, where a first engine leaves two programs. */
	snprintf(path, sizeof(path), "%s/cache", c->dir);
	c->cache = strdup(path);
	c->engine = test_engine(c->cache);
	/* Oclgrind is not thread-safe (tests/test-algorithms-calls.c, test_threads). */
	if (test_on_oclgrind(c->engine)) {
		clwarp_engine_free(c->engine);
		c->engine = NULL;
		return;
	}
	snprintf(path, sizeof(path), "%s/shared.cl", c->inc);
	ck_assert_clwarp_ok(clwarp_program_build_source(c->engine, shared_source, "shared.cl", "-DADD=0", &p, NULL));
	ck_assert_clwarp_ok(clwarp_program_build_file(c->engine, path, NULL, &p, NULL));
	clwarp_engine_free(c->engine);
	c->engine = test_engine(c->cache);
}

void
threads_case_teardown(struct threads_case *c)
{
	clwarp_engine_free(c->engine);
	if (!c->inc_shared)
		test_rmtree(c->inc);
	test_rmtree(c->dir);
	free(c->dir);
	free(c->cache);
}

void
threads_case_run(struct threads_case *c, struct worker *workers)
{
	pthread_t ids[MAX_THREADS];
	pthread_barrier_t barrier;

	ck_assert_int_eq(pthread_barrier_init(&barrier, NULL, (unsigned)c->threads), 0);
	for (int i = 0; i < c->threads; i++) {
		workers[i].id = i;
		workers[i].rounds = c->rounds;
		workers[i].barrier = &barrier;
		workers[i].dir = c->inc;
		workers[i].ok = true;
		ck_assert_int_eq(pthread_create(&ids[i], NULL, worker_main, &workers[i]), 0);
	}
	for (int i = 0; i < c->threads; i++)
		ck_assert_int_eq(pthread_join(ids[i], NULL), 0);
	pthread_barrier_destroy(&barrier);
	for (int i = 0; i < c->threads; i++)
		ck_assert_msg(workers[i].ok, "thread %d: %s", i, workers[i].why);
}

void
threads_case_report(const struct threads_case *c, const char *what, const struct worker *workers,
		    clwarp_backend backend, unsigned warp)
{
	unsigned long sum[COUNTS] = { 0 };

	for (int i = 0; i < c->threads; i++) {
		ck_assert_msg(workers[i].backend == backend && workers[i].warp == warp,
			      "thread %d saw backend %s/%u, want %s/%u", i,
			      clwarp_backend_name(workers[i].backend), workers[i].warp,
			      clwarp_backend_name(backend), warp);
		for (int n = 0; n < COUNTS; n++)
			sum[n] += workers[i].n[n];
	}
	printf("threads, %s: %d threads x %d rounds on %s, backend %s, warp %u: %lu engines made, "
	       "%lu builds (%lu compiled, %lu from disk, %lu from memory), %lu kernel lookups, "
	       "%lu launches, %lu reads and writes, %lu algorithm calls, %lu queries, "
	       "%lu thread-local errors; every value checked\n",
	       what, c->threads, c->rounds, clwarp_engine_device_info(c->engine)->name,
	       clwarp_backend_name(backend), warp, sum[ENGINES], sum[BUILDS], sum[COMPILED], sum[DISK],
	       sum[MEMORY], sum[LOOKUPS], sum[LAUNCHES], sum[TRANSFERS], sum[ALGORITHMS], sum[QUERIES],
	       sum[ERRORS]);
}

/* The engine's log handler: libclwarp calls it from whichever thread logs,
 * several at once, so it takes its own lock. Every message must arrive
 * whole, and from more than one thread. */
struct log_seen {
	pthread_mutex_t lock;
	unsigned long messages, bad;
	pthread_t threads[MAX_THREADS + 1];
	size_t nthreads;
};

static void
count_log(clwarp_log_level level, const char *message, void *user_data)
{
	struct log_seen *seen = user_data;
	bool known = false;

	pthread_mutex_lock(&seen->lock);
	seen->messages++;
	if (level < CLWARP_LOG_ERROR || level > CLWARP_LOG_DEBUG || !message || !*message ||
	    strlen(message) >= 4096)
		seen->bad++;
	for (size_t i = 0; i < seen->nthreads && !known; i++)
		known = pthread_equal(seen->threads[i], pthread_self());
	if (!known && seen->nthreads < MAX_THREADS + 1)
		seen->threads[seen->nthreads++] = pthread_self();
	pthread_mutex_unlock(&seen->lock);
}

START_TEST(test_threads_one_engine)
{
	struct threads_case c;
	struct worker workers[MAX_THREADS];
	struct log_seen seen = { .lock = PTHREAD_MUTEX_INITIALIZER };
	clwarp_engine_options o;
	clwarp_backend backend;
	unsigned warp = 0;

	threads_case_setup(&c);
	if (c.engine) {
		/* The shared engine logs every build (debug) to count_log. */
		clwarp_engine_free(c.engine);
		c.engine = NULL;
		clwarp_engine_options_init(&o);
		o.cache_dir = c.cache;
		o.log_fn = count_log;
		o.log_user_data = &seen;
		o.log_level = CLWARP_LOG_DEBUG;
		ck_assert_clwarp_ok(clwarp_engine_new(&o, &c.engine));
		/* No call on the engine before the threads start: they race to resolve the backend. */
		for (int i = 0; i < c.threads; i++)
			workers[i] = (struct worker){ .engine = c.engine };
		threads_case_run(&c, workers);
		ck_assert_clwarp_ok(clwarp_engine_backend(c.engine, &backend, &warp));
		threads_case_report(&c, "one engine", workers, backend, warp);
		ck_assert_msg(seen.bad == 0, "%lu of %lu log messages were not whole", seen.bad,
			      seen.messages);
		ck_assert_msg(seen.messages >= (unsigned long)(c.threads * c.rounds) && seen.nthreads >= 2,
			      "%lu log messages from %zu threads", seen.messages, seen.nthreads);
	}
	threads_case_teardown(&c);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("threads", &tc);

	test_store_binaries_on_pocl();
	/* Under ThreadSanitizer on a loaded 2-core machine: 2 minutes there. */
	tcase_set_timeout(tc, 900);
	ADD_TEST(tc, test_threads_one_engine);
	threads_engines_add(tc);
	return test_main(s);
}
