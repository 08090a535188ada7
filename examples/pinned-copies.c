/* Example: pinned host memory and asynchronous copies around a kernel. */
/* SPDX-License-Identifier: MIT */
/*
 *     pinned-copies
 *
 * Allocates its input and output with clwarp_host_buffer_new (pinned where the
 * driver gives it, else ordinary memory: it says which), writes the input
 * in two halves with clwarp_buffer_write_async, runs a kernel once both
 * have arrived (the wait list says so), and reads the result back with
 * clwarp_buffer_read_async after the kernel's event; it waits only once,
 * at the end. Prints the kind of host memory, n, the first eight results
 * and their sum, checks every result against a host loop ("the host
 * agrees"), and exits 1 on any error or mismatch.
 */
#include <clwarp/clwarp.h>
#include <stdio.h>

#define N ((1u << 20) + 5u)

static const char source[] =
	"kernel void twice_plus_one(global int *a) { size_t i = get_global_id(0); a[i] = 2 * a[i] + 1; }\n";

static int
fail(const char *what, clwarp_status status)
{
	fprintf(stderr, "pinned-copies: %s: %s: %s\n", what, clwarp_status_name(status),
		clwarp_last_error());
	return 1;
}

int
main(void)
{
	clwarp_engine *engine = NULL;
	clwarp_program *program = NULL;
	clwarp_kernel *kernel = NULL;
	cl_mem buffer = NULL;
	int *in = NULL, *out = NULL, pinned = 0, rc = 1;
	cl_event written[2] = { NULL, NULL }, ran = NULL, read = NULL;
	const size_t half = N / 2 * sizeof(int), global = N;
	clwarp_status s;
	long long sum = 0;

	if ((s = clwarp_engine_new(NULL, &engine)) != CLWARP_OK)
		return fail("engine", s);
	if ((s = clwarp_host_buffer_new(engine, N * sizeof(int), (void **)&in)) != CLWARP_OK ||
	    (s = clwarp_host_buffer_new(engine, N * sizeof(int), (void **)&out)) != CLWARP_OK) {
		fail("clwarp_host_buffer_new", s);
		goto out;
	}
	if ((s = clwarp_host_buffer_pinned(engine, in, &pinned)) != CLWARP_OK) {
		fail("clwarp_host_buffer_pinned", s);
		goto out;
	}
	for (unsigned i = 0; i < N; i++)
		in[i] = (int)(i % 1000) - 500;
	if ((s = clwarp_program_build_source(engine, source, "pinned-copies", NULL, &program, NULL)) != CLWARP_OK ||
	    (s = clwarp_kernel_new(program, "twice_plus_one", &kernel)) != CLWARP_OK ||
	    (s = clwarp_buffer_new(engine, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &buffer)) != CLWARP_OK ||
	    (s = clwarp_kernel_set_arg_buffer(kernel, 0, buffer)) != CLWARP_OK) {
		fail("setting up the kernel", s);
		goto out;
	}

	/* Two writes, the kernel after both, the read after the kernel. The
	 * host memory must stay as it is until the writes have completed,
	 * and `out` must not be read before the read has. */
	if ((s = clwarp_buffer_write_async(engine, buffer, 0, half, in, 0, NULL, &written[0])) != CLWARP_OK ||
	    (s = clwarp_buffer_write_async(engine, buffer, half, N * sizeof(int) - half,
					   (char *)in + half, 0, NULL, &written[1])) != CLWARP_OK) {
		fail("clwarp_buffer_write_async", s);
		goto out;
	}
	/* The engine's queue is in order: the launch runs after the writes. */
	if ((s = clwarp_kernel_launch(kernel, 1, &global, NULL, &ran)) != CLWARP_OK) {
		fail("clwarp_kernel_launch", s);
		goto out;
	}
	if ((s = clwarp_buffer_read_async(engine, buffer, 0, N * sizeof(int), out, 1, &ran, &read)) != CLWARP_OK) {
		fail("clwarp_buffer_read_async", s);
		goto out;
	}
	if (clWaitForEvents(1, &read) != CL_SUCCESS) {
		fprintf(stderr, "pinned-copies: waiting for the read failed\n");
		goto out;
	}

	printf("host memory: %s\n", pinned ? "pinned" : "ordinary (the fallback)");
	printf("n: %u\n", N);
	printf("first:");
	for (unsigned i = 0; i < 8; i++)
		printf(" %d", out[i]);
	printf("\n");
	for (unsigned i = 0; i < N; i++) {
		if (out[i] != 2 * in[i] + 1) {
			fprintf(stderr, "pinned-copies: element %u is %d, expected %d\n", i, out[i], 2 * in[i] + 1);
			goto out;
		}
		sum += out[i];
	}
	printf("sum: %lld\n", sum);
	printf("the host agrees\n");
	rc = 0;
out:
	for (unsigned i = 0; i < 2; i++)
		if (written[i])
			clReleaseEvent(written[i]);
	if (ran)
		clReleaseEvent(ran);
	if (read)
		clReleaseEvent(read);
	if (buffer)
		clReleaseMemObject(buffer);
	clwarp_kernel_free(kernel);
	clwarp_host_buffer_free(engine, in);
	clwarp_host_buffer_free(engine, out);
	clwarp_engine_free(engine);
	return rc;
}
