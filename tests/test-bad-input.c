/* Bad input at the API: one table of calls that must fail with one status
 * and one clear message (docs/reliability.md, "Bad input"); the environment's
 * cases are in test-bad-input-env.c, the CLI's in tests/cli_bad_input.py. */
/* SPDX-License-Identifier: MIT */
#include "testutil.h"

#include <clwarp/algorithms.h>
#include <stdint.h>

#include "test-bad-input.h"

struct bad_input_fixture F;

static const char source[] = "kernel void two(global int *a, int b) { a[get_global_id(0)] = b; }\n";

void
capture(clwarp_log_level level, const char *message, void *user_data)
{
	(void)user_data;
	if (level > CLWARP_LOG_WARNING)
		return;
	F.warnings++;
	snprintf(F.warning, sizeof(F.warning), "%s", message);
}

/* The status of @p expr, its message kept before anything can clear it. */
#define KEEP(expr)                                                         \
	do {                                                               \
		clwarp_status keep_status_ = (expr);                       \
		snprintf(F.msg, sizeof(F.msg), "%s", clwarp_last_error()); \
		return keep_status_;                                       \
	} while (0)

/* Build the file @p name of F.dir holding @p size bytes of @p data. */
static clwarp_status
build_bytes(const char *name, const char *data, size_t size)
{
	char path[4200];
	clwarp_program *p = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", F.dir, name);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, size, f), size);
	fclose(f);
	KEEP(clwarp_program_build_file(F.e, path, NULL, &p, NULL));
}

#define BUILD_TEXT(name, text) build_bytes(name, text, sizeof(text) - 1)

static clwarp_status
launch(unsigned dims, size_t g0, size_t g1, size_t l0, size_t l1)
{
	size_t global[3] = { g0, g1, 1 }, local[3] = { l0, l1, 1 };

	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(F.k, 0, F.buf));
	KEEP(clwarp_kernel_launch(F.k, dims, global, l0 ? local : NULL, NULL));
}

/* ---------------------------------------------------------------- cases */

/* Sources and files. */
static clwarp_status
c_source_null(void)
{
	clwarp_program *p = NULL;

	KEEP(clwarp_program_build_source(F.e, NULL, NULL, NULL, &p, NULL));
}

static clwarp_status
c_file_directory(void)
{
	clwarp_program *p = NULL;

	KEEP(clwarp_program_build_file(F.e, F.dir, NULL, &p, NULL));
}

static clwarp_status c_file_nul(void)
{
	return BUILD_TEXT("nul.cl", "kernel void f(global int *a) { a[0] = 1; }\n\0// more\n");
}

static clwarp_status c_file_binary(void)
{
	return BUILD_TEXT("binary.cl", "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0");
}

static clwarp_status c_file_latin1(void)
{
	return BUILD_TEXT("latin1.cl", "kernel void f(global int *a)\n{\n\ta[0] = caf\xe9;\n}\n");
}

static clwarp_status c_file_missing_include(void)
{
	return BUILD_TEXT("inc.cl", "#include \"nowhere.h\"\nkernel void f(global int *a) { a[0] = 1; }\n");
}

static clwarp_status
c_options_bad(void)
{
	clwarp_program *p = NULL;

	KEEP(clwarp_program_build_source(F.e, "kernel void f(global int *a) { a[0] = 1; }\n", "opts",
					 "-cl-no-such-option", &p, NULL));
}

/* Kernels and their arguments. */
static clwarp_status
c_kernel_null_name(void)
{
	clwarp_kernel *k = NULL;

	KEEP(clwarp_kernel_new(F.p, NULL, &k));
}

static clwarp_status
c_kernel_empty_name(void)
{
	clwarp_kernel *k = NULL;

	KEEP(clwarp_kernel_new(F.p, "", &k));
}

static clwarp_status
c_arg_index(void)
{
	int v = 1;

	KEEP(clwarp_kernel_set_arg_scalar(F.k, 7, sizeof(v), &v));
}

static clwarp_status c_arg_no_value(void) { KEEP(clwarp_kernel_set_arg_scalar(F.k, 1, 4, NULL)); }
static clwarp_status c_arg_local_zero(void) { KEEP(clwarp_kernel_set_arg_local(F.k, 0, 0)); }

/* Launch sizes. */
static clwarp_status c_dims_zero(void) { return launch(0, 64, 1, 64, 1); }
static clwarp_status c_dims_four(void) { return launch(4, 64, 1, 64, 1); }
static clwarp_status c_global_zero(void) { return launch(1, 0, 1, 64, 1); }
static clwarp_status c_local_zero(void) { return launch(2, 64, 1, 64, 0); }
static clwarp_status c_local_not_dividing(void) { return launch(1, 96, 1, 64, 1); }
static clwarp_status c_local_dims_mismatch(void) { return launch(2, 64, 6, 64, 4); }
static clwarp_status
c_local_over_device(void)
{
	size_t twice = 2 * clwarp_engine_device_info(F.e)->max_work_group_size;

	return launch(1, twice, 1, twice, 1);
}

static clwarp_status c_arg_never_set(void) { return launch(1, 64, 1, 64, 1); }
static clwarp_status c_global_overflow(void) { return launch(2, SIZE_MAX, 2, 1, 1); }
static clwarp_status c_groups_over_32_bits(void) { return launch(2, (size_t)1 << 32, 2, 1, 1); }
static clwarp_status c_items_without_local(void) { return launch(1, (size_t)1 << 32, 1, 0, 0); }

static clwarp_status
c_launch_null_global(void)
{
	KEEP(clwarp_kernel_launch(F.k, 1, NULL, NULL, NULL));
}

/* Buffers. */
static clwarp_status
c_buffer_zero(void)
{
	cl_mem m = NULL;

	KEEP(clwarp_buffer_new(F.e, CL_MEM_READ_WRITE, 0, NULL, &m));
}

static clwarp_status
c_buffer_size_max(void)
{
	cl_mem m = NULL;

	KEEP(clwarp_buffer_new(F.e, CL_MEM_READ_WRITE, SIZE_MAX, NULL, &m));
}

static clwarp_status
c_read_past_end(void)
{
	int out[32];

	KEEP(clwarp_buffer_read(F.e, F.buf, 32, 64, out));
}

static clwarp_status
c_read_offset_wraps(void)
{
	int out[2];

	KEEP(clwarp_buffer_read(F.e, F.buf, SIZE_MAX, 2, out));
}

static clwarp_status
c_write_past_end(void)
{
	int in[17] = { 0 };

	KEEP(clwarp_buffer_write(F.e, F.buf, 0, sizeof(in), in));
}

/* Pinned host memory and asynchronous copies. */
static clwarp_status
c_host_zero(void)
{
	void *p = NULL;

	KEEP(clwarp_host_buffer_new(F.e, 0, &p));
}

static clwarp_status
c_host_size_max(void)
{
	void *p = NULL;

	KEEP(clwarp_host_buffer_new(F.e, SIZE_MAX, &p));
}

static clwarp_status c_host_null_out(void) { KEEP(clwarp_host_buffer_new(F.e, 64, NULL)); }

static clwarp_status
c_host_null_engine(void)
{
	void *p = NULL;

	KEEP(clwarp_host_buffer_new(NULL, 64, &p));
}

static clwarp_status
c_host_free_not_ours(void)
{
	int x = 0;

	KEEP(clwarp_host_buffer_free(F.e, &x));
}

static clwarp_status
c_host_free_inside(void)
{
	void *p = NULL;
	clwarp_status s;

	ck_assert_clwarp_ok(clwarp_host_buffer_new(F.e, 64, &p));
	s = clwarp_host_buffer_free(F.e, (char *)p + 8);
	snprintf(F.msg, sizeof(F.msg), "%s", clwarp_last_error());
	ck_assert_clwarp_ok(clwarp_host_buffer_free(F.e, p));
	return s;
}

static clwarp_status
c_host_free_twice(void)
{
	void *p = NULL;

	ck_assert_clwarp_ok(clwarp_host_buffer_new(F.e, 64, &p));
	ck_assert_clwarp_ok(clwarp_host_buffer_free(F.e, p));
	KEEP(clwarp_host_buffer_free(F.e, p));
}

static clwarp_status c_host_free_null_engine(void) { KEEP(clwarp_host_buffer_free(NULL, F.msg)); }

static clwarp_status
c_host_pinned_not_ours(void)
{
	int x = 0, pinned;

	KEEP(clwarp_host_buffer_pinned(F.e, &x, &pinned));
}

static clwarp_status
c_read_async_past_end(void)
{
	int out[32];
	cl_event ev;

	KEEP(clwarp_buffer_read_async(F.e, F.buf, 32, 64, out, 0, NULL, &ev));
}

static clwarp_status
c_write_async_offset_wraps(void)
{
	int in[2] = { 0 };

	KEEP(clwarp_buffer_write_async(F.e, F.buf, SIZE_MAX, 2, in, 0, NULL, NULL));
}

static clwarp_status
c_async_null_host(void)
{
	KEEP(clwarp_buffer_read_async(F.e, F.buf, 0, 4, NULL, 0, NULL, NULL));
}

static clwarp_status
c_async_wait_null(void)
{
	int out[4];

	KEEP(clwarp_buffer_read_async(F.e, F.buf, 0, sizeof(out), out, 2, NULL, NULL));
}

static clwarp_status
c_async_wait_count_zero(void)
{
	int in[4] = { 0 };
	cl_event list[1] = { NULL };

	KEEP(clwarp_buffer_write_async(F.e, F.buf, 0, sizeof(in), in, 0, list, NULL));
}

static clwarp_status
c_async_wait_null_event(void)
{
	int in[4] = { 0 };
	cl_event list[2] = { NULL, NULL };

	KEEP(clwarp_buffer_write_async(F.e, F.buf, 0, sizeof(in), in, 2, list, NULL));
}

static clwarp_status
c_backend_name(void)
{
	clwarp_backend b;

	KEEP(clwarp_backend_from_name("warpdrive", &b));
}

/* Flag bits a call does not know (F.buf holds 16 ints). */
static clwarp_status
c_scan_flags(void)
{
	KEEP(clwarp_scan(F.e, CLWARP_TYPE_INT, F.buf, F.buf, 16, CLWARP_OP_ADD, 0x6u, NULL));
}

static clwarp_status
c_segmented_scan_flags(void)
{
	KEEP(clwarp_segmented_scan(F.e, CLWARP_TYPE_INT, F.buf, F.buf, 2, 8, CLWARP_OP_ADD,
				   CLWARP_SCAN_INCLUSIVE | 0x100u, NULL));
}

static clwarp_status
c_partition_flags(void)
{
	KEEP(clwarp_partition(F.e, CLWARP_TYPE_INT, F.buf, F.buf, F.buf, 16, "x > 0",
			      0x2u, NULL));
}

static const struct bad_case {
	const char *name;
	clwarp_status (*run)(void);
	clwarp_status want;
	const char *message;  /* in the one-line message; NULL: none wanted */
} cases[] = {
	{ "CLWARP_WARP_SIZE negative", c_warp_size_negative, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_WARP_SIZE=\"-1\" is not a number" },
	{ "CLWARP_WARP_SIZE leading blank", c_warp_size_blank, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_WARP_SIZE=\" 16\" is not a number" },
	{ "CLWARP_WARP_SIZE plus sign", c_warp_size_plus, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_WARP_SIZE=\"+16\" is not a number" },
	{ "CLWARP_WARP_SIZE huge", c_warp_size_huge, CLWARP_ERROR_INVALID_ARGUMENT, "is out of range" },
	{ "CLWARP_WARP_SIZE trailing junk", c_warp_size_junk, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_WARP_SIZE=\"32x\"" },
	{ "CLWARP_WARP_SIZE too wide", c_warp_size_wide, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_WARP_SIZE=\"4096\": the width must be a power of two" },
	{ "CLWARP_WARP_SIZE zero", c_warp_size_zero, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_WARP_SIZE=\"0\"" },
	{ "CLWARP_WARP_SIZE empty (unset)", c_warp_size_empty, CLWARP_OK, NULL },
	{ "CLWARP_CACHE_MAX_BYTES text", c_cache_max_text, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_CACHE_MAX_BYTES=\"abc\" is not a number" },
	{ "CLWARP_CACHE_MAX_BYTES negative", c_cache_max_negative, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_CACHE_MAX_BYTES=\" -1\" is not a number" },
	{ "CLWARP_CACHE_MAX_BYTES huge", c_cache_max_huge, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_CACHE_MAX_BYTES=\"99999999999999999999\" is out of range" },
	{ "CLWARP_CACHE_MAX_BYTES suffix", c_cache_max_suffix, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_CACHE_MAX_BYTES=\"256M\"" },
	{ "CLWARP_CACHE_MAX_BYTES zero", c_cache_max_zero, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_CACHE_MAX_BYTES=0: the bound must be at least 1 byte" },
	{ "CLWARP_CACHE word", c_cache_word, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_CACHE=\"off\": expected 0" },
	{ "CLWARP_CACHE number", c_cache_number, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_CACHE=\"2\"" },
	{ "CLWARP_CACHE empty (unset)", c_cache_empty, CLWARP_OK, NULL },
	{ "CLWARP_CACHE_DIR a file (warning, memory cache only)", c_cache_dir_file, CLWARP_OK, "cannot use folder /dev/null" },
	{ "CLWARP_CACHE_GROUP unknown (warning, memory cache only)", c_cache_group_env, CLWARP_OK, "group \"clwarp-no-such-group\": no such group" },
	{ "cache_group unknown (warning, memory cache only)", c_cache_group_option, CLWARP_OK, "group \"clwarp-no-such-group\": no such group" },
	{ "CLWARP_LOG_LEVEL number", c_log_level_number, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_LOG_LEVEL=\"4\"" },
	{ "CLWARP_LOG_LEVEL junk", c_log_level_junk, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_LOG_LEVEL=\"debugx\"" },
	{ "CLWARP_BACKEND case", c_backend_case, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_BACKEND=\"Local\"" },
	{ "CLWARP_NATIVE_WIDTH 2", c_native_width_two, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_NATIVE_WIDTH=\"2\"" },
	{ "CLWARP_DEVICE matches nothing", c_device_none, CLWARP_ERROR_DEVICE_NOT_FOUND, "CLWARP_DEVICE=\"no such device\" matches no OpenCL device" },
	{ "CLWARP_DEVICE index with junk", c_device_index_junk, CLWARP_ERROR_DEVICE_NOT_FOUND, "CLWARP_DEVICE=\"0:0junk\"" },
	{ "CLWARP_ALGO_TUNING text", c_tuning_text, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_ALGO_TUNING: wg must be" },
	{ "CLWARP_ALGO_TUNING negative", c_tuning_negative, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_ALGO_TUNING: wg must be" },
	{ "CLWARP_ALGO_TUNING huge", c_tuning_huge, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_ALGO_TUNING: wg must be" },
	{ "CLWARP_ALGO_TUNING trailing junk", c_tuning_junk, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_ALGO_TUNING: wg must be" },
	{ "CLWARP_ALGO_TUNING unknown key", c_tuning_key, CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_ALGO_TUNING=\"tile=4\"" },
	{ "source NULL", c_source_null, CLWARP_ERROR_INVALID_ARGUMENT, "NULL" },
	{ "file is a directory", c_file_directory, CLWARP_ERROR_IO, "Is a directory" },
	{ "file with a NUL byte", c_file_nul, CLWARP_ERROR_BUILD, "nul.cl: not OpenCL C source (contains a NUL byte)" },
	{ "binary file", c_file_binary, CLWARP_ERROR_BUILD, "binary.cl: not OpenCL C source" },
	{ "non-UTF-8 identifier", c_file_latin1, CLWARP_ERROR_BUILD, "latin1.cl:3:" },
	{ "missing #include", c_file_missing_include, CLWARP_ERROR_IO, "inc.cl:1: cannot read #include \"nowhere.h\"" },
	{ "unknown build option", c_options_bad, CLWARP_ERROR_BUILD, "opts" },
	{ "kernel name NULL", c_kernel_null_name, CLWARP_ERROR_INVALID_ARGUMENT, "NULL" },
	{ "kernel name empty", c_kernel_empty_name, CLWARP_ERROR_KERNEL_NOT_FOUND, "no kernel \"\"" },
	{ "argument index past the last", c_arg_index, CLWARP_ERROR_INVALID_ARGUMENT, "there is no argument 7" },
	{ "scalar without a value", c_arg_no_value, CLWARP_ERROR_INVALID_ARGUMENT, "scalar argument 1 has no value" },
	{ "local memory of 0 bytes", c_arg_local_zero, CLWARP_ERROR_INVALID_ARGUMENT, "local argument 0 of 0 bytes" },
	{ "argument never set", c_arg_never_set, CLWARP_ERROR_OPENCL, "launching kernel two: argument 1 (of 2) was never set: CL_INVALID_KERNEL_ARGS" },
	{ "0 dimensions", c_dims_zero, CLWARP_ERROR_INVALID_ARGUMENT, "work dimensions must be 1, 2 or 3, not 0" },
	{ "4 dimensions", c_dims_four, CLWARP_ERROR_INVALID_ARGUMENT, "not 4" },
	{ "global size 0", c_global_zero, CLWARP_ERROR_INVALID_ARGUMENT, "global size is 0 in dimension 0" },
	{ "local size 0", c_local_zero, CLWARP_ERROR_INVALID_ARGUMENT, "local size is 0 in dimension 1" },
	{ "local size not dividing", c_local_not_dividing, CLWARP_ERROR_INVALID_ARGUMENT, "global size 96 is not a multiple of local size 64" },
	{ "local size not dividing dimension 1", c_local_dims_mismatch, CLWARP_ERROR_INVALID_ARGUMENT, "in dimension 1" },
	{ "local size over the device", c_local_over_device, CLWARP_ERROR_TOO_LARGE, "exceeds the device's maximum work-group size" },
	{ "work-items overflow size_t", c_global_overflow, CLWARP_ERROR_TOO_LARGE, "more work-items than size_t holds" },
	{ "2^33 work-groups", c_groups_over_32_bits, CLWARP_ERROR_TOO_LARGE, "8589934592 work-groups in one launch" },
	{ "2^32 work-items, no local size", c_items_without_local, CLWARP_ERROR_TOO_LARGE, "4294967296 work-items without a local size" },
	{ "global size NULL", c_launch_null_global, CLWARP_ERROR_INVALID_ARGUMENT, "NULL kernel or global size" },
	{ "buffer of 0 bytes", c_buffer_zero, CLWARP_ERROR_INVALID_ARGUMENT, "a buffer of 0 bytes" },
	{ "buffer of SIZE_MAX bytes", c_buffer_size_max, CLWARP_ERROR_TOO_LARGE, "exceeds the device's largest allocation" },
	{ "read past the end", c_read_past_end, CLWARP_ERROR_INVALID_ARGUMENT, "reading 64 bytes at offset 32 of a buffer of 64 bytes: past its end" },
	{ "read offset wrapping size_t", c_read_offset_wraps, CLWARP_ERROR_INVALID_ARGUMENT, "the end overflows size_t" },
	{ "write past the end", c_write_past_end, CLWARP_ERROR_INVALID_ARGUMENT, "writing 68 bytes at offset 0" },
	{ "host memory of 0 bytes", c_host_zero, CLWARP_ERROR_INVALID_ARGUMENT, "host memory of 0 bytes" },
	{ "host memory of SIZE_MAX bytes", c_host_size_max, CLWARP_ERROR_TOO_LARGE, "exceeds the device's largest allocation" },
	{ "host memory into NULL", c_host_null_out, CLWARP_ERROR_INVALID_ARGUMENT, "NULL output pointer for host memory" },
	{ "host memory of a NULL engine", c_host_null_engine, CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine for host memory" },
	{ "freeing host memory not ours", c_host_free_not_ours, CLWARP_ERROR_INVALID_ARGUMENT, "that clwarp_host_buffer_new did not give this engine" },
	{ "freeing inside a block", c_host_free_inside, CLWARP_ERROR_INVALID_ARGUMENT, "8 bytes into a block of 64 bytes" },
	{ "freeing host memory twice", c_host_free_twice, CLWARP_ERROR_INVALID_ARGUMENT, "(or that is freed already)" },
	{ "freeing host memory of a NULL engine", c_host_free_null_engine, CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine for host memory" },
	{ "pinned query of memory not ours", c_host_pinned_not_ours, CLWARP_ERROR_INVALID_ARGUMENT, "is not from clwarp_host_buffer_new on this engine" },
	{ "async read past the end", c_read_async_past_end, CLWARP_ERROR_INVALID_ARGUMENT, "reading 64 bytes at offset 32 of a buffer of 64 bytes: past its end" },
	{ "async write offset wrapping size_t", c_write_async_offset_wraps, CLWARP_ERROR_INVALID_ARGUMENT, "the end overflows size_t" },
	{ "async read into NULL", c_async_null_host, CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine, buffer or destination" },
	{ "wait list NULL with 2 events", c_async_wait_null, CLWARP_ERROR_INVALID_ARGUMENT, "a wait list of 2 events that is NULL" },
	{ "wait list with num_wait 0", c_async_wait_count_zero, CLWARP_ERROR_INVALID_ARGUMENT, "a wait list that is not NULL with num_wait 0" },
	{ "wait list holding NULL", c_async_wait_null_event, CLWARP_ERROR_INVALID_ARGUMENT, "event 0 of the wait list of 2 is NULL" },
	{ "scan: unknown flags", c_scan_flags, CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_scan: unknown flags 0x6 (only CLWARP_SCAN_INCLUSIVE is known)" },
	{ "segmented scan: unknown flags", c_segmented_scan_flags, CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_segmented_scan: unknown flags 0x100" },
	{ "partition: unknown flags", c_partition_flags, CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_partition: unknown flags 0x2 (only CLWARP_PARTITION_REVERSED is known)" },
	{ "unknown backend name", c_backend_name, CLWARP_ERROR_INVALID_ARGUMENT, "unknown backend \"warpdrive\"" },
};

START_TEST(test_bad_input_table)
{
	const struct bad_case *c = &cases[_i];
	clwarp_status got;

	F.msg[0] = '\0';
	got = c->run();
	ck_assert_msg(got == c->want, "%s: status %s, expected %s (message: %s)", c->name,
		      clwarp_status_name(got), clwarp_status_name(c->want), F.msg);
	if (!c->message)
		return;
	ck_assert_msg(strstr(F.msg, c->message), "%s: the message \"%s\" does not say \"%s\"", c->name,
		      F.msg, c->message);
	/* One line, said once, and none of the driver's own output in it. */
	ck_assert_msg(!strchr(F.msg, '\n'), "%s: the message has several lines: %s", c->name, F.msg);
	ck_assert_msg(!strstr(strstr(F.msg, c->message) + 1, c->message), "%s: said twice: %s", c->name,
		      F.msg);
	ck_assert_msg(!strstr(F.msg, "generated."), "%s: driver output in the message: %s", c->name,
		      F.msg);
}
END_TEST

static void
setup(void)
{
	clwarp_engine_options o;

	/* The tests' disk cache: each case runs in a process of its own. */
	clwarp_engine_options_init(&o);
	o.log_fn = capture;
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &F.e));
	ck_assert_clwarp_ok(clwarp_program_build_source(F.e, source, "fixture", NULL, &F.p, NULL));
	ck_assert_clwarp_ok(clwarp_kernel_new(F.p, "two", &F.k));
	ck_assert_clwarp_ok(clwarp_buffer_new(F.e, CL_MEM_READ_WRITE, 64, NULL, &F.buf));
	F.dir = test_tmpdir();
}

static void
teardown(void)
{
	test_rmtree(F.dir);
	free(F.dir);
	clReleaseMemObject(F.buf);
	clwarp_kernel_free(F.k);
	clwarp_engine_free(F.e);
	memset(&F, 0, sizeof(F));
}

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("bad-input", &tc);

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_bad_input_table, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	return test_main(s);
}
