/* Blocking copies staged through the engine's pinned chunks (src/staging.c),
 * forced on for every device by CLWARP_STAGING so that CPU drivers run the
 * same code as GPUs: odd ranges, 0 and 1 bytes, the threshold, bad knobs,
 * device groups, pinning refused; kernels, threads and freeing the engine
 * in test-staging-race.c. Every byte is checked against the host's own copy. */
/* SPDX-License-Identifier: MIT */
#include "testutil.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>

#include "clwarp/group.h"
#include "test-staging.h"

/* The staging knobs the tests force: chunks smaller than a page and of
 * no round size, and larger ones split between host threads; chunks above
 * the smallest piece (64 KiB) give pieces of several sizes (growing from
 * the start, shrinking towards the end of a read). */
const char *const knobs[] = {
	"force=1,threshold=0,chunk=1000,chunks=8,threads=3",
	"force=1,threshold=0,chunk=4096,chunks=2,threads=1",
	"force=1,threshold=0,chunk=33333,chunks=16,threads=4",
	"force=1,threshold=0,chunk=70000,chunks=4,threads=2,stream=0",
};

/* The library's "staged ..." debug messages: proof that a copy was
 * staged, and by more than one host thread; its "pinning ... failed"
 * messages, for test_pinning_refused. */
atomic_uint staged_copies;
static atomic_uint staged_threaded, pinning_failed;

static void
count_staged(clwarp_log_level level, const char *message, void *user_data)
{
	(void)level;
	(void)user_data;
	if (strncmp(message, "staged ", 7) == 0) {
		atomic_fetch_add(&staged_copies, 1);
		if (!strstr(message, " 1 threads"))
			atomic_fetch_add(&staged_threaded, 1);
	}
	if (strncmp(message, "pinning ", 8) == 0 && strstr(message, " failed "))
		atomic_fetch_add(&pinning_failed, 1);
}

/*
 * A driver out of pinnable memory, on demand: while refuse_pinning is
 * set, clCreateBuffer with CL_MEM_ALLOC_HOST_PTR fails as such a driver's
 * does. Defined in this program, it comes before the ICD loader's for the
 * library's calls too; every other call goes on to the loader's. No CPU
 * driver here refuses pinned buffers of its own accord.
 */
static atomic_bool refuse_pinning;
static atomic_uint pins_refused;
static cl_mem (*loader_create_buffer)(cl_context, cl_mem_flags, size_t, void *, cl_int *);

CL_API_ENTRY cl_mem CL_API_CALL
clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *err)
{
	if (atomic_load(&refuse_pinning) && (flags & CL_MEM_ALLOC_HOST_PTR)) {
		atomic_fetch_add(&pins_refused, 1);
		if (err)
			*err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
		return NULL;
	}
	return loader_create_buffer(context, flags, size, host_ptr, err);
}

static void
staging_options(clwarp_engine_options *o)
{
	clwarp_engine_options_init(o);
	o->flags = CLWARP_ENGINE_NO_DISK_CACHE;
	o->log_fn = count_staged;
	o->log_level = CLWARP_LOG_DEBUG;
}

/* Oclgrind runs commands in whichever host thread flushes and crashes
 * when two do at once (Oclgrind 21.10: "Unhandled command type in queue"):
 * there, one staging thread and no test of several host threads. */
static int oclgrind_known = -1;

/* Asked in each test's own process: an engine made before Check forks
 * would leave PoCL's worker threads in the parent only. */
bool
on_oclgrind(void)
{
	clwarp_engine *probe = NULL;

	if (oclgrind_known < 0) {
		oclgrind_known = 0;
		if (clwarp_engine_new(NULL, &probe) == CLWARP_OK)
			oclgrind_known = test_on_oclgrind(probe);
		clwarp_engine_free(probe);
	}
	return oclgrind_known == 1;
}

/* CLWARP_STAGING=`knob`, with one thread on Oclgrind (a later key wins). */
static void
set_knob(const char *knob)
{
	char text[256];

	snprintf(text, sizeof(text), "%s%s", knob, on_oclgrind() ? ",threads=1" : "");
	setenv("CLWARP_STAGING", text, 1);
}

/* An engine with CLWARP_STAGING set to `knob` (NULL: unset). */
clwarp_engine *
staging_engine(const char *knob)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;

	staging_options(&o);
	if (knob)
		set_knob(knob);
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	unsetenv("CLWARP_STAGING");
	return e;
}

static unsigned char
pattern(size_t i, unsigned seed)
{
	uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u;

	return (unsigned char)(x >> 13 ^ x >> 24 ^ seed);
}

void
fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = pattern(i, seed);
}

/* The first byte where p differs from q, or n. */
size_t
first_diff(const unsigned char *p, const unsigned char *q, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != q[i])
			return i;
	return n;
}

static const struct range {
	size_t offset, bytes;
} ranges[] = {
	{ 0, 0 }, { 17, 0 }, { 0, 1 }, { N_BYTES - 1, 1 }, { 1, 999 }, { 3, 1000 }, { 999, 1001 },
	{ 5, 4095 }, { 4097, 8193 }, { 12345, 77778 }, { 1, N_BYTES - 1 }, { 0, N_BYTES },
};

/* Each range written into a buffer of known bytes, the whole buffer read
 * back and compared with the host's model of it, then the range read back
 * between guard bytes. */
START_TEST(test_ranges)
{
	clwarp_engine *e = staging_engine(knobs[_i]);
	unsigned char *model = malloc(N_BYTES), *src = malloc(N_BYTES), *all = malloc(N_BYTES);
	unsigned char *dst = malloc(N_BYTES + 2), *want = malloc(N_BYTES + 2);
	cl_mem buf = NULL;
	unsigned before = atomic_load(&staged_copies), threaded = atomic_load(&staged_threaded);

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, N_BYTES, NULL, &buf));
	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		size_t off = ranges[r].offset, n = ranges[r].bytes, at;

		fill(model, N_BYTES, 1 + (unsigned)r);
		ck_assert_clwarp_ok(clwarp_buffer_write(e, buf, 0, N_BYTES, model));
		fill(src, n, 100 + (unsigned)r);
		ck_assert_clwarp_ok(clwarp_buffer_write(e, buf, off, n, src));
		memcpy(model + off, src, n);
		memset(all, 0, N_BYTES);
		ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, 0, N_BYTES, all));
		at = first_diff(all, model, N_BYTES);
		ck_assert_msg(at == N_BYTES, "%s, range %zu (+%zu): byte %zu is %u, expected %u", knobs[_i],
			      off, n, at, at < N_BYTES ? all[at] : 0, at < N_BYTES ? model[at] : 0);

		memset(dst, 0xa5, N_BYTES + 2);
		memset(want, 0xa5, N_BYTES + 2);
		memcpy(want + 1, model + off, n);
		ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, off, n, dst + 1));
		at = first_diff(dst, want, N_BYTES + 2);
		ck_assert_msg(at == N_BYTES + 2, "%s, read of range %zu (+%zu): byte %zu wrong", knobs[_i],
			      off, n, at);
	}
	/* Two whole-buffer copies per range at least, staged with threshold 0. */
	ck_assert_uint_ge(atomic_load(&staged_copies) - before, 2 * sizeof(ranges) / sizeof(ranges[0]));
	/* The whole buffer is split between threads where the knob allows. */
	if (!strstr(knobs[_i], "threads=1") && !on_oclgrind())
		ck_assert_uint_gt(atomic_load(&staged_threaded) - threaded, 0);
	ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, 5, 0, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_write(e, buf, N_BYTES, 0, NULL));
	clReleaseMemObject(buf);
	free(model);
	free(src);
	free(all);
	free(dst);
	free(want);
	clwarp_engine_free(e);
}
END_TEST

/* What is staged: copies from the threshold up, not memory from
 * clwarp_host_buffer_new, nothing with chunks=0; each copy still right. */
START_TEST(test_threshold)
{
	static const struct {
		const char *knob;
		size_t bytes;
		bool pinned, staged;
	} cases[] = {
		{ "force=1,threshold=5000,chunk=1024", 4999, false, false },
		{ "force=1,threshold=5000,chunk=1024", 5000, false, true },
		{ "force=1,threshold=5K,chunk=1K", 5120, false, true },
		{ "force=1,threshold=0,chunk=1024", 100000, true, false },
		{ "force=1,threshold=0,chunks=0", 100000, false, false },
		/* Two chunks at least, or the driver's path. */
		{ "force=1,threshold=0,chunks=1", 100000, false, false },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		clwarp_engine *e = staging_engine(cases[c].knob);
		size_t n = cases[c].bytes;
		unsigned char *src = NULL, *dst = NULL;
		cl_mem buf = NULL;
		unsigned before;

		if (cases[c].pinned) {
			ck_assert_clwarp_ok(clwarp_host_buffer_new(e, n, (void **)&src));
			/* Any pointer inside a block counts. */
			ck_assert_clwarp_ok(clwarp_host_buffer_new(e, n + 1, (void **)&dst));
			dst++;
		} else {
			src = malloc(n);
			dst = malloc(n);
		}
		fill(src, n, (unsigned)c);
		memset(dst, 0, n);
		ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, n, NULL, &buf));
		before = atomic_load(&staged_copies);
		ck_assert_clwarp_ok(clwarp_buffer_write(e, buf, 0, n, src));
		ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, 0, n, dst));
		ck_assert_msg(atomic_load(&staged_copies) - before == (cases[c].staged ? 2u : 0u),
			      "%s, %zu bytes: %u copies staged", cases[c].knob, n,
			      atomic_load(&staged_copies) - before);
		ck_assert_uint_eq(first_diff(dst, src, n), n);
		clReleaseMemObject(buf);
		if (cases[c].pinned) {
			ck_assert_clwarp_ok(clwarp_host_buffer_free(e, src));
			ck_assert_clwarp_ok(clwarp_host_buffer_free(e, dst - 1));
		} else {
			free(src);
			free(dst);
		}
		clwarp_engine_free(e);
	}
}
END_TEST

/* Bad knobs: the engine is refused with one message naming the variable. */
START_TEST(test_bad_knobs)
{
	static const char *const bad[] = {
		"chunk=0", "chunks=65", "threads=0", "threads=65", "force=2", "stream=-1", "stream=1Q", "bogus=1", "threshold",
		"chunk=12Q", "chunk=2G", "chunk=-1", "chunk=", ",", "threshold=99999999999999999999",
	};
	clwarp_engine_options o;
	clwarp_engine *e = NULL;

	staging_options(&o);
	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		setenv("CLWARP_STAGING", bad[b], 1);
		ck_assert_msg(clwarp_engine_new(&o, &e) == CLWARP_ERROR_INVALID_ARGUMENT, "\"%s\" taken", bad[b]);
		ck_assert_ptr_null(e);
		ck_assert_msg(strstr(clwarp_last_error(), "CLWARP_STAGING=\"") != NULL, "\"%s\": %s", bad[b],
			      clwarp_last_error());
	}
	/* The environment is not read with CLWARP_ENGINE_NO_ENVIRONMENT. */
	o.flags |= CLWARP_ENGINE_NO_ENVIRONMENT;
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	clwarp_engine_free(e);
	unsetenv("CLWARP_STAGING");
}
END_TEST

/* Scatter and gather of a device group through its engines' chunks:
 * slices of odd sizes, one empty. */
START_TEST(test_group)
{
	clwarp_engine_options o;
	clwarp_group *g = NULL;
	size_t count, offsets[CLWARP_GROUP_MAX_DEVICES + 1], n = 250001;
	cl_mem buffers[CLWARP_GROUP_MAX_DEVICES];
	uint32_t *host = malloc(n * 4), *back = malloc(n * 4);
	unsigned before;

	staging_options(&o);
	set_knob(knobs[_i]);
	ck_assert_clwarp_ok(clwarp_group_new(NULL, &o, &g));
	unsetenv("CLWARP_STAGING");
	count = clwarp_group_size(g);
	offsets[0] = 0;
	for (size_t d = 0; d < count; d++)
		offsets[d + 1] = d == 0 && count > 1 ? 0 : offsets[d] + (n - offsets[d]) / (count - d) + (d % 2);
	offsets[count] = n;
	for (size_t i = 0; i < n; i++)
		host[i] = (uint32_t)i * 40503u ^ 0xc0ffeeu;
	before = atomic_load(&staged_copies);
	ck_assert_clwarp_ok(clwarp_group_scatter(g, host, buffers, offsets, 4));
	memset(back, 0, n * 4);
	ck_assert_clwarp_ok(clwarp_group_gather(g, buffers, back, offsets, 4));
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(back[i] == host[i], "%s: element %zu is %u, expected %u", knobs[_i], i, back[i],
			      host[i]);
	/* Both ways, every device with a slice. */
	ck_assert_uint_eq(atomic_load(&staged_copies) - before, 2 * (count > 1 ? count - 1 : 1));
	clwarp_group_buffers_free(g, buffers);
	clwarp_group_free(g);
	free(host);
	free(back);
}
END_TEST

/*
 * The driver refuses pinned memory. A GPU engine (one that pins) then
 * says once that pinning for staging failed and copies directly; where
 * staging is forced (CPU drivers, which pin nothing) the chunks are
 * ordinary memory and copies stay staged. clwarp_host_buffer_new falls back to
 * ordinary memory, with its own message where the engine pins. Every
 * byte of every copy is checked.
 */
START_TEST(test_pinning_refused)
{
	clwarp_engine *e = staging_engine(NULL);
	unsigned char *src = malloc(N_BYTES), *back = malloc(N_BYTES);
	unsigned staged, failed, refused = atomic_load(&pins_refused);
	void *host = NULL;
	int pins = 0, pinned = 1;
	cl_mem buf = NULL;
	size_t at;

	ck_assert(src && back);
	/* Whether this engine pins: its clwarp_host_buffer_new memory says. */
	ck_assert_clwarp_ok(clwarp_host_buffer_new(e, 4096, &host));
	ck_assert_clwarp_ok(clwarp_host_buffer_pinned(e, host, &pins));
	clwarp_host_buffer_free(e, host);
	clwarp_engine_free(e);

	atomic_store(&refuse_pinning, true);
	e = staging_engine(pins ? "threshold=0,chunk=4096,chunks=8,threads=2"
				: "force=1,threshold=0,chunk=4096,chunks=8,threads=2");
	staged = atomic_load(&staged_copies);
	failed = atomic_load(&pinning_failed);
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, N_BYTES, NULL, &buf));
	for (unsigned round = 0; round < 2; round++) {
		fill(src, N_BYTES, 7 + round);
		memset(back, 0, N_BYTES);
		ck_assert_clwarp_ok(clwarp_buffer_write(e, buf, 0, N_BYTES, src));
		ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, 0, N_BYTES, back));
		at = first_diff(back, src, N_BYTES);
		ck_assert_msg(at == N_BYTES, "pinning refused, round %u: byte %zu is %u, expected %u",
			      round, at, at < N_BYTES ? back[at] : 0, at < N_BYTES ? src[at] : 0);
	}
	/* The library asked for pinned chunks and was refused. */
	ck_assert_uint_ge(atomic_load(&pins_refused) - refused, 1);
	if (pins) {
		/* Once for the chunks (then direct for good), no staged copy. */
		ck_assert_uint_eq(atomic_load(&pinning_failed) - failed, 1);
		ck_assert_uint_eq(atomic_load(&staged_copies) - staged, 0);
	} else {
		ck_assert_uint_eq(atomic_load(&pinning_failed) - failed, 0);
		ck_assert_uint_ge(atomic_load(&staged_copies) - staged, 4);
	}
	failed = atomic_load(&pinning_failed);
	ck_assert_clwarp_ok(clwarp_host_buffer_new(e, 4096, &host));
	ck_assert_clwarp_ok(clwarp_host_buffer_pinned(e, host, &pinned));
	ck_assert_int_eq(pinned, 0);
	memset(host, 0x5a, 4096);
	ck_assert_clwarp_ok(clwarp_buffer_write(e, buf, 1, 4096, host));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, buf, 0, N_BYTES, back));
	ck_assert_uint_eq(back[0], src[0]);
	for (size_t i = 1; i <= 4096; i++)
		ck_assert_uint_eq(back[i], 0x5a);
	ck_assert_uint_eq(back[4097], src[4097]);
	clwarp_host_buffer_free(e, host);
	ck_assert_uint_eq(atomic_load(&pinning_failed) - failed, pins ? 1 : 0);
	atomic_store(&refuse_pinning, false);
	clReleaseMemObject(buf);
	clwarp_engine_free(e);
	free(src);
	free(back);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("staging", &tc);
	int knob_count = (int)(sizeof(knobs) / sizeof(knobs[0]));

	/* Before any engine: the next clCreateBuffer, the ICD loader's. */
	*(void **)&loader_create_buffer = dlsym(RTLD_NEXT, "clCreateBuffer");
	if (!loader_create_buffer) {
		fprintf(stderr, "test-staging: no clCreateBuffer after this program's: %s\n", dlerror());
		return EXIT_FAILURE;
	}

	/* Each knob of `knobs` in turn (_i). */
	if (test_wanted("test_ranges"))
		tcase_add_loop_test(tc, test_ranges, 0, knob_count);
	ADD_TEST(tc, test_threshold);
	ADD_TEST(tc, test_bad_knobs);
	staging_add_race_tests(tc, test_wanted, knob_count);
	ADD_TEST(tc, test_pinning_refused);
	if (test_wanted("test_group"))
		tcase_add_loop_test(tc, test_group, 0, knob_count);
	return test_main(s);
}
