/* CUDA code that <clwarp/cuda.h> takes as it is (tests/cuda-port.cl) against
 * a host model, and the messages for what OpenCL C cannot say. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <limits.h>

#include "test-cuda.h"

#define PORT_N 256
#define PORT_LOCAL 128
#define PORT_FIELDS 16

struct port_args {
	int in[PORT_N];
	int32_t scale;
	uint64_t add;
	int8_t bias;
	unsigned W;
	long long arch;	/* __CUDA_ARCH__ as the backend gives it; 0: any SM value */
};

/* The lanes of t's warp whose key (in & 3) equals t's, or whose
 * sv & 4 is set (ballot): bit j for lane j. */
static uint64_t
port_mask(const struct port_args *a, int t, bool ballot)
{
	int base = t - t % (int)a->W;
	uint64_t m = 0;

	for (int j = 0; j < (int)a->W; j++) {
		long long sv = (long long)a->in[base + j] * a->scale - 5;
		bool in = ballot ? (sv & 4) != 0 : (a->in[base + j] & 3) == (a->in[t] & 3);

		m |= in ? UINT64_C(1) << j : 0;
	}
	return m;
}

static long long
port_sv(const struct port_args *a, int t)
{
	return (long long)a->in[t] * a->scale - 5;
}

static unsigned long long
port_big(const struct port_args *a, int t)
{
	return ((unsigned long long)(uint32_t)a->in[t] << 32) | (unsigned)t;
}

/* Field f of thread t, by CUDA's rules on a warp of W lanes. */
static long long
port_model(const struct port_args *a, int t, int f)
{
	int W = (int)a->W, lane = t % W, base = t - lane, one = W > 1, v = a->in[t];
	long long top = LLONG_MIN;
	int block = t - t % PORT_LOCAL;

	switch (f) {
	case 0: return (long long)port_big(a, base);
	case 1: return port_sv(a, base + (lane ^ one));
	case 2: return (long long)port_big(a, lane + one < W ? t + one : t);
	case 3: return port_sv(a, lane - one >= 0 ? t - one : t);
	case 4: return (long long)port_mask(a, t, false);
	case 5:
		for (int j = base; j < base + W; j++)
			top = port_sv(a, j) > top ? port_sv(a, j) : top;
		return top;
	case 6: return (long long)port_mask(a, t, true);
	case 7: return port_sv(a, block + PORT_LOCAL - 1 - t % PORT_LOCAL);
	case 8: return a->arch * 10 + 1;
	case 9: return (long long)(a->add + 1) + (long long)a->scale * 2;
	case 10: return (int8_t)v + (uint16_t)v * 1000LL + a->bias;
	case 11: return (long long)((float)v * 2.0f + (float)t);
	case 12: return v + t * 10LL + 300 + 4000;
	case 13: return (uint8_t)v + 3000;
	case 14: return (long long)(port_big(a, t) + 8000000u);
	default: return (long long)(int16_t)v * (uint8_t)v;
	}
}

START_TEST(test_port_unedited)
{
	clwarp_engine *e = engine_new(forced_widths[_i]);
	static long long out[PORT_N * PORT_FIELDS];
	struct port_args a = { .scale = -7, .add = UINT64_C(0x100000000), .bias = -3 };
	struct tally tl = { 0 };
	clwarp_program *prog = build_program(e, "cuda-port.cl");
	clwarp_kernel *k = NULL;
	clwarp_backend backend;
	size_t n = PORT_N, local = PORT_LOCAL;
	char what[96];
	cl_mem bin, bout;

	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &a.W));
	a.arch = backend == CLWARP_BACKEND_NV ? 0 : 700;
	for (int i = 0; i < PORT_N; i++)
		a.in[i] = (int)((i * 2654435761u) % 2001u) - 1000;
	ck_assert_clwarp_ok(clwarp_kernel_new(prog, "port", &k));
	bin = buffer(e, sizeof(a.in), a.in);
	bout = buffer(e, sizeof(out), NULL);
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bin));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bout));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 2, sizeof(a.scale), &a.scale));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 3, sizeof(a.add), &a.add));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 4, sizeof(a.bias), &a.bias));
	memset(out, 0xa5, sizeof(out));	/* a field the kernel forgets cannot pass */
	ck_assert_clwarp_ok(clwarp_buffer_write(e, bout, 0, sizeof(out), out));
	launch(k, 1, &n, &local);
	ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, sizeof(out), out));
	for (int t = 0; t < PORT_N; t++) {
		for (int f = 0; f < PORT_FIELDS; f++) {
			long long got = out[t * PORT_FIELDS + f], want = port_model(&a, t, f);

			/* nv: __CUDA_ARCH__ is the device's SM, some multiple of 10. */
			if (f == 8 && a.arch == 0)
				want = got >= 3001 && got % 100 == 1 ? got : -1;
			tl.checked++;
			if (got != want)
				mismatch(&tl, "W=%u thread %d field %d: got %lld, want %lld", a.W, t, f, got, want);
		}
	}
	snprintf(what, sizeof(what), "unedited CUDA on %s, W = %u", clwarp_backend_name(backend), a.W);
	tally_assert(&tl, what);
	clReleaseMemObject(bin);
	clReleaseMemObject(bout);
	clwarp_kernel_free(k);
	clwarp_engine_free(e);
}
END_TEST

/* The build of src fails, and its first error is want, at file:line:
 * "error: FILE:LINE:COL: ..." (PoCL, Intel) or "FILE:LINE:COL: error: ..."
 * (NVIDIA). */
static void
check_build_message(clwarp_engine *e, const char *src, const char *file, unsigned line, const char *want)
{
	clwarp_program *prog = NULL;
	clwarp_build_info info;
	char where[64];
	const char *err, *at, *first, *end;

	ck_assert_int_eq(clwarp_program_build_source(e, src, file, NULL, &prog, &info), CLWARP_ERROR_BUILD);
	err = clwarp_last_error();
	snprintf(where, sizeof(where), "%s:%u:", file, line);
	at = strstr(err, where);
	end = at ? strchr(at, '\n') : NULL;
	ck_assert_msg(at && strstr(at, want) && (!end || strstr(at, want) < end),
		      "%s: want \"%s\" at %s\n%s\n%s", file, want, where, err, info.log ? info.log : "");
	first = strstr(err, "error");
	ck_assert_msg(first && (first > at || (at - first == 7 && strncmp(first, "error: ", 7) == 0)),
		      "%s: not the first error: %s", file, err);
	fprintf(stderr, "%s: %s\n", file, want);
	clwarp_build_info_free(&info);
}

/* What OpenCL C has no words for is the compiler's error at the user's
 * line, saying so; nothing of it reaches the warp-context rewrite. */
START_TEST(test_port_messages)
{
	static const char *const tmpl =
		"#include <clwarp/cuda.h>\n"
		"\n"
		"template <typename T>\n"
		"__device__ T wsum(T x) { return __reduce_add_sync(0xffffffff, x); }\n"
		"__global__ void k(global int *o) { o[threadIdx.x] = wsum(o[threadIdx.x]); }\n";
	static const char *const args =
		"#include <clwarp/cuda.h>\n"
		"__device__ int wsum(int x) { return __reduce_add_sync(0xffffffff, x); }\n"
		"__global__ void k(global int *o) {\n"
		"  o[threadIdx.x] = wsum<int>(o[threadIdx.x]);\n"
		"}\n";
	static const char *const helper =
		"#include <clwarp/cuda.h>\n"
		"__device__ int f(int x) {\n"
		"  static __shared__ int s[64];\n"
		"  s[threadIdx.x] = x; __syncthreads(); return s[63 - threadIdx.x];\n"
		"}\n"
		"__global__ void k(global int *o) { o[threadIdx.x] = f(o[threadIdx.x]); }\n";
	clwarp_engine *e = engine_new(0);

	check_build_message(e, tmpl, "tmpl.cl", 3,
			    "<clwarp/cuda.h>: a C++ template: OpenCL C has no templates; write the function "
			    "once for each type it is used with (a macro can write them)");
	check_build_message(e, args, "args.cl", 4,
			    "<clwarp/cuda.h>: explicit template arguments: OpenCL C has no templates; "
			    "call a function written for those arguments");
	check_build_message(e, helper, "helper.cl", 3,
			    "<clwarp/cuda.h>: __shared__ in a function that is not a kernel: OpenCL C has "
			    "local memory variables only in kernels; declare it in the kernel and pass this "
			    "function a pointer to it");
	clwarp_engine_free(e);
}
END_TEST

void
cuda_add_port_tests(TCase *tc, bool (*wanted)(const char *name))
{
	if (wanted("test_port_messages"))
		tcase_add_test(tc, test_port_messages);
	/* The engine's backend, and local at W = 64 (64-bit masks). */
	if (wanted("test_port_unedited")) {
		tcase_add_loop_test(tc, test_port_unedited, 0, 1);
		tcase_add_loop_test(tc, test_port_unedited, FORCED_WIDTHS - 1, FORCED_WIDTHS);
	}
}
