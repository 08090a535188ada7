/* scanrep MODE...: fresh libclwarp engine, float exclusive min/max scans; prints ok or WRONG.
 * MODE: tune (test_tuning's shape: wg=64, 3 vectors, max, n=2303), n1 (max, n=1),
 * big (max, n=5000 default tuning), seg (segmented min exclusive, 3 rows of 257),
 * mintune (min with tuning). HEAPSEED=s: seed-dependent malloc pattern first. */
#define CL_TARGET_OPENCL_VERSION 120
#include <clwarp/clwarp.h>
#include <clwarp/algorithms.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int run(clwarp_engine *e, int seg, clwarp_op op, size_t rows, size_t len)
{
	size_t n = rows * len; float *x = malloc(n * 4), *y = malloc(n * 4); cl_int err; int bad = 0;
	for (size_t i = 0; i < n; i++) x[i] = (float)((int)((i * 2654435761u) % 17) - 8) / 8.0f;
	cl_context ctx = clwarp_engine_context(e); cl_command_queue q = clwarp_engine_queue(e);
	cl_mem in = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, x, &err);
	cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
	clwarp_status s = seg ? clwarp_segmented_scan(e, CLWARP_TYPE_FLOAT, op, 0, in, rows, len, out, NULL)
			      : clwarp_scan(e, CLWARP_TYPE_FLOAT, op, 0, in, out, n, NULL);
	if (s) { printf("status %d\n", (int)s); return 1; }
	clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * 4, y, 0, NULL, NULL);
	for (size_t r = 0; r < rows; r++) {
		float acc = op == CLWARP_OP_MIN ? INFINITY : -INFINITY;
		for (size_t j = 0; j < len; j++) {
			size_t i = r * len + j;
			if (y[i] != acc && bad++ < 3)
				printf("%s %s: element %zu is %g, expected %g\n", seg ? "seg" : "scan",
				       op == CLWARP_OP_MIN ? "min" : "max", i, y[i], acc);
			acc = op == CLWARP_OP_MIN ? fminf(acc, x[i]) : fmaxf(acc, x[i]);
		}
	}
	clReleaseMemObject(in); clReleaseMemObject(out); free(x); free(y);
	return bad != 0;
}
int main(int argc, char **argv)
{
	int bad = 0;
	if (getenv("HEAPSEED")) { unsigned seed = atoi(getenv("HEAPSEED")); srand(seed); int cnt = rand() % 2000; for (int i = 0; i < cnt; i++) { void *m = malloc(rand() % 4096 + 1); if (rand() % 3 == 0) free(m); } }
	for (int a = 1; a < argc; a++) {
		const char *m = argv[a];
		if (!strcmp(m, "tune") || !strcmp(m, "mintune"))
			setenv("CLWARP_ALGO_TUNING", "wg=64,scan_wg=64,scan_vectors=3,select_wg=32,select_vectors=5,reduce_groups=2,reduce_unroll=3,packed_lookback=0", 1);
		else
			unsetenv("CLWARP_ALGO_TUNING");
		clwarp_engine *e; clwarp_engine_options o; clwarp_engine_options_init(&o); o.backend = CLWARP_BACKEND_KHR;
		if (clwarp_engine_new(&o, &e)) { printf("engine failed\n"); return 2; }
		int b = !strcmp(m, "tune") ? run(e, 0, CLWARP_OP_MAX, 1, 2303)
		      : !strcmp(m, "mintune") ? run(e, 0, CLWARP_OP_MIN, 1, 2303)
		      : !strcmp(m, "n1") ? run(e, 0, CLWARP_OP_MAX, 1, 1)
		      : !strcmp(m, "big") ? run(e, 0, CLWARP_OP_MAX, 1, 5000)
		      : run(e, 1, CLWARP_OP_MIN, 3, 257);
		printf("%s: %s\n", m, b ? "WRONG" : "ok");
		bad |= b;
		clwarp_engine_free(e);
	}
	return bad;
}
