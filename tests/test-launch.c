/* Launch tests on the real OpenCL runtime: 2-D launches with an event,
 * launches without an event, local sizes that change between launches, and
 * blocking launches on an out-of-order queue. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "testutil.h"

/* Every lane: its warp's sum of in[] times 1000, plus the local size. */
static const char *warp_source =
	"kernel void wsum(global const int *in, global int *out)\n"
	"{ size_t i = get_global_id(0);\n"
	"  out[i] = warp_reduce_add(in[i]) * 1000 + (int)get_local_size(0); }\n"
	"kernel void accumulate(global const int *in, global int *acc)\n"
	"{ size_t i = get_global_id(0); acc[i] += warp_reduce_add(in[i]); }\n";

enum { N = 256 };

struct launch_fixture {
	clwarp_engine *e;
	clwarp_program *p;
	clwarp_kernel *k;
	cl_mem in, out;
	int host_in[N];
	unsigned warp;
};

static void
fixture_init(struct launch_fixture *f, clwarp_engine *e, const char *kernel)
{
	f->e = e;
	ck_assert_clwarp_ok(clwarp_engine_backend(e, NULL, &f->warp));
	ck_assert_clwarp_ok(clwarp_program_build_source(e, warp_source, "launch.cl", NULL, &f->p, NULL));
	ck_assert_clwarp_ok(clwarp_kernel_new(f->p, kernel, &f->k));
	for (int i = 0; i < N; i++)
		f->host_in[i] = (i * 37) % 101 - 50;
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_ONLY, sizeof(f->host_in), f->host_in, &f->in));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, sizeof(f->host_in), NULL, &f->out));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(f->k, 0, f->in));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(f->k, 1, f->out));
}

static void
fixture_fini(struct launch_fixture *f)
{
	clReleaseMemObject(f->in);
	clReleaseMemObject(f->out);
	clwarp_kernel_free(f->k);
	clwarp_engine_free(f->e);
}

static int
warp_sum(const struct launch_fixture *f, size_t i)
{
	size_t first = i - i % f->warp;
	int sum = 0;

	for (size_t j = first; j < first + f->warp; j++)
		sum += f->host_in[j];
	return sum;
}

/* Runs wsum at this local size and checks every lane against the host. */
static void
check_wsum_at(struct launch_fixture *f, size_t local)
{
	size_t global = N;
	int out[N];

	ck_assert_clwarp_ok(clwarp_kernel_launch(f->k, 1, &global, &local, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(f->e, f->out, 0, sizeof(out), out));
	for (size_t i = 0; i < N; i++)
		ck_assert_msg(out[i] == warp_sum(f, i) * 1000 + (int)local,
			      "local size %zu, lane %zu: got %d, want %d", local, i, out[i],
			      warp_sum(f, i) * 1000 + (int)local);
}

START_TEST(test_launch_2d_with_event)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	clwarp_kernel *k = NULL;
	cl_mem m;
	cl_event ev = NULL;
	size_t global[2] = { 16, 12 }, local[2] = { 4, 3 };
	int out[16 * 12];

	ck_assert_clwarp_ok(clwarp_program_build_source(
		e, "kernel void grid(global int *o)\n"
		   "{ o[get_global_id(1) * get_global_size(0) + get_global_id(0)] =\n"
		   "    (int)(get_global_id(0) * 100 + get_global_id(1)); }\n",
		"grid.cl", NULL, &p, NULL));
	ck_assert_clwarp_ok(clwarp_kernel_new(p, "grid", &k));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &m));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, m));
	ck_assert_clwarp_ok(clwarp_kernel_launch(k, 2, global, local, &ev));
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
	clReleaseEvent(ev);
	ck_assert_clwarp_ok(clwarp_buffer_read(e, m, 0, sizeof(out), out));
	for (int y = 0; y < 12; y++)
		for (int x = 0; x < 16; x++)
			ck_assert_int_eq(out[y * 16 + x], x * 100 + y);
	clReleaseMemObject(m);
	clwarp_kernel_free(k);
	clwarp_engine_free(e);
}
END_TEST

/* A kernel without parameters beside one with them, in one program: NVIDIA's
 * compiler failed such a program when asked for argument info
 * (contrib/driver-bugs/nvidia-driver/README.md). Both run; the second one's result is
 * checked. */
START_TEST(test_kernel_without_parameters)
{
	clwarp_engine *e = test_engine(NULL);
	clwarp_program *p = NULL;
	clwarp_kernel *none = NULL, *copy = NULL;
	cl_mem m;
	size_t one = 1;
	int out[1] = { 0 };

	ck_assert_clwarp_ok(clwarp_program_build_source(
		e, "kernel void nothing(void) {}\n"
		   "kernel void empty_parentheses() {}\n"
		   "kernel void put(global int *o) { o[0] = 7; }\n",
		"none.cl", NULL, &p, NULL));
	ck_assert_clwarp_ok(clwarp_kernel_new(p, "nothing", &none));
	ck_assert_uint_eq(clwarp_kernel_arg_count(none), 0);
	ck_assert_clwarp_ok(clwarp_kernel_launch(none, 1, &one, &one, NULL));
	ck_assert_clwarp_ok(clwarp_kernel_new(p, "put", &copy));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &m));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(copy, 0, m));
	ck_assert_clwarp_ok(clwarp_kernel_launch(copy, 1, &one, &one, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, m, 0, sizeof(out), out));
	ck_assert_int_eq(out[0], 7);
	clReleaseMemObject(m);
	clwarp_kernel_free(copy);
	clwarp_kernel_free(none);
	clwarp_engine_free(e);
}
END_TEST

/* Five launches queued without events or waits, each adding the warp sums
 * to the accumulator: they run in order, and the blocking read sees all. */
START_TEST(test_enqueue_without_event)
{
	struct launch_fixture f;
	size_t global = N, local = 64;
	int zero[N] = { 0 }, acc[N];

	fixture_init(&f, test_engine(NULL), "accumulate");
	ck_assert_clwarp_ok(clwarp_buffer_write(f.e, f.out, 0, sizeof(zero), zero));
	for (int r = 0; r < 5; r++)
		ck_assert_clwarp_ok(clwarp_kernel_enqueue(f.k, 1, &global, &local));
	ck_assert_int_eq(clFinish(clwarp_engine_queue(f.e)), CL_SUCCESS);
	ck_assert_clwarp_ok(clwarp_buffer_read(f.e, f.out, 0, sizeof(acc), acc));
	for (size_t i = 0; i < N; i++)
		ck_assert_msg(acc[i] == 5 * warp_sum(&f, i), "lane %zu: got %d, want %d", i, acc[i],
			      5 * warp_sum(&f, i));

	/* The same checks as a waiting launch: bad sizes are refused before
	 * anything is queued. */
	ck_assert_int_eq(clwarp_kernel_enqueue(NULL, 1, &global, &local), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(clwarp_kernel_enqueue(f.k, 1, NULL, &local), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(clwarp_kernel_enqueue(f.k, 0, &global, &local), CLWARP_ERROR_INVALID_ARGUMENT);
	global = 96;
	ck_assert_int_eq(clwarp_kernel_enqueue(f.k, 1, &global, &local), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "not a multiple of local size"));
	ck_assert_int_eq(clwarp_kernel_enqueue(f.k, 1, &global, NULL), CLWARP_ERROR_WARP_CONTRACT);
	fixture_fini(&f);
}
END_TEST

/* The warp contract check and the local backend's scratch run once per
 * local size: every change of local size (up, down, refused, back) must be
 * seen, and each launch's results must be right for its own size. */
START_TEST(test_local_size_changes)
{
	struct launch_fixture f;
	size_t max_wg;

	fixture_init(&f, test_engine(NULL), "wsum");
	max_wg = clwarp_engine_device_info(f.e)->max_work_group_size;
	check_wsum_at(&f, 64);
	check_wsum_at(&f, 64);
	check_wsum_at(&f, f.warp);
	if (max_wg >= 256)
		check_wsum_at(&f, 256);
	check_wsum_at(&f, 64);
	if (f.warp >= 2) {
		size_t global = 3 * f.warp / 2 * 4, bad = 3 * f.warp / 2;

		ck_assert_int_eq(clwarp_kernel_launch(f.k, 1, &global, &bad, NULL), CLWARP_ERROR_WARP_CONTRACT);
		ck_assert_ptr_nonnull(strstr(clwarp_last_error(), "not a multiple of the warp size"));
		/* still refused the second time: a refusal is not remembered as checked */
		ck_assert_int_eq(clwarp_kernel_enqueue(f.k, 1, &global, &bad), CLWARP_ERROR_WARP_CONTRACT);
	}
	check_wsum_at(&f, 64);
	fixture_fini(&f);
}
END_TEST

/* A blocking launch on an application's out-of-order queue waits for its
 * own kernel (an event there, not clFinish's in-order shortcut). */
START_TEST(test_blocking_launch_out_of_order_queue)
{
	clwarp_engine *plain = test_engine(NULL);
	cl_context ctx = clwarp_engine_context(plain);
	cl_device_id dev = clwarp_engine_device(plain);
	cl_command_queue_properties supported = 0;
	cl_command_queue q;
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	struct launch_fixture f;
	cl_int err;

	ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof(supported), &supported, NULL),
			 CL_SUCCESS);
	if (!(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
		fprintf(stderr, "%s has no out-of-order queues: nothing to check\n",
			clwarp_engine_device_info(plain)->name);
		clwarp_engine_free(plain);
		return;
	}
	q = clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
	ck_assert_int_eq(err, CL_SUCCESS);
	clwarp_engine_options_init(&o);
	o.flags |= CLWARP_ENGINE_NO_DISK_CACHE;
	ck_assert_clwarp_ok(clwarp_engine_new_from_cl(ctx, dev, q, &o, &e));
	clReleaseCommandQueue(q);
	fixture_init(&f, e, "wsum");
	check_wsum_at(&f, 64);
	check_wsum_at(&f, f.warp);
	fixture_fini(&f);
	clwarp_engine_free(plain);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("launch", &tc);

	tcase_add_test(tc, test_launch_2d_with_event);
	tcase_add_test(tc, test_enqueue_without_event);
	tcase_add_test(tc, test_local_size_changes);
	tcase_add_test(tc, test_blocking_launch_out_of_order_queue);
	tcase_add_test(tc, test_kernel_without_parameters);
	return test_main(s);
}
