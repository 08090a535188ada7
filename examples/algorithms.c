/* Example: device-wide reduce, scan and sort on numbers you supply. */
/* SPDX-License-Identifier: MIT */
/*
 *     algorithms [FILE]      (integers separated by blanks; no FILE or "-": stdin)
 *
 * Copies the numbers to the device once, then sums them and finds their
 * minimum and maximum (clwarp_reduce), takes their inclusive prefix sums
 * (clwarp_scan) and sorts them (clwarp_sort_keys, in place). Prints each
 * result and checks it against a host loop; exits 1 on any error or
 * mismatch. Sums wrap around as cl_int does.
 */
#include <clwarp/algorithms.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
report(const char *what, clwarp_status status)
{
	fprintf(stderr, "algorithms: %s: %s: %s\n", what, clwarp_status_name(status),
	        clwarp_last_error());
}

/* Reads every integer of @p f into a malloc'ed array; NULL on a bad token or no memory. */
static cl_int *
read_numbers(FILE *f, size_t *n)
{
	cl_int *v = NULL, *grown;
	size_t cap = 0;
	int x, got;

	*n = 0;
	while ((got = fscanf(f, "%d", &x)) == 1) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 1024;
			if (!(grown = realloc(v, cap * sizeof(*v)))) {
				free(v);
				return NULL;
			}
			v = grown;
		}
		v[(*n)++] = x;
	}
	if (got != EOF) {
		fprintf(stderr, "algorithms: input: not an integer after %zu numbers\n", *n);
		free(v);
		return NULL;
	}
	/* An empty input is fine: every call takes n == 0. */
	return v ? v : malloc(sizeof(*v));
}

static int
compare_int(const void *a, const void *b)
{
	cl_int x = *(const cl_int *)a, y = *(const cl_int *)b;
	return (x > y) - (x < y);
}

static void
print_list(const char *label, const cl_int *v, size_t n)
{
	printf("%s:", label);
	for (size_t i = 0; i < n; i++)
		printf(" %d", (int)v[i]);
	printf("\n");
}

int
main(int argc, char **argv)
{
	FILE *f = stdin;
	clwarp_engine *engine = NULL;
	cl_mem data = NULL, scanned = NULL, result = NULL;
	cl_int *host = NULL, *device_out = NULL, *expect = NULL;
	cl_int sum, min, max, host_sum = 0, host_min = CL_INT_MAX, host_max = CL_INT_MIN;
	size_t n, i, bytes;
	clwarp_status status;
	int rc = 1, mismatch;

	if (argc > 1 && strcmp(argv[1], "-") != 0 && !(f = fopen(argv[1], "r"))) {
		perror(argv[1]);
		return 1;
	}
	host = read_numbers(f, &n);
	if (f != stdin)
		fclose(f);
	if (!host)
		return 1;
	bytes = n * sizeof(cl_int);
	device_out = malloc(bytes + sizeof(cl_int));
	expect = malloc(bytes + sizeof(cl_int));
	if (!device_out || !expect)
		goto out;
	printf("n: %zu\n", n);

	status = clwarp_engine_new(NULL, &engine);
	if (status != CLWARP_OK) {
		report("no engine", status);
		goto out;
	}
	/* A buffer of 0 bytes is not allowed in OpenCL: keep at least one element. */
	status = clwarp_buffer_new(engine, CL_MEM_READ_WRITE, bytes + sizeof(cl_int), NULL, &data);
	if (status == CLWARP_OK && n)
		status = clwarp_buffer_write(engine, data, 0, bytes, host);
	if (status == CLWARP_OK)
		status = clwarp_buffer_new(engine, CL_MEM_READ_WRITE, bytes + sizeof(cl_int), NULL, &scanned);
	if (status == CLWARP_OK)
		status = clwarp_buffer_new(engine, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &result);
	if (status != CLWARP_OK) {
		report("buffers", status);
		goto out;
	}

	/* With a NULL event each call waits for its result. */
	status = clwarp_reduce(engine, CLWARP_TYPE_INT, data, result, n, CLWARP_OP_ADD, NULL);
	if (status == CLWARP_OK)
		status = clwarp_buffer_read(engine, result, 0, sizeof(sum), &sum);
	if (status == CLWARP_OK)
		status = clwarp_reduce(engine, CLWARP_TYPE_INT, data, result, n, CLWARP_OP_MIN,
				NULL);
	if (status == CLWARP_OK)
		status = clwarp_buffer_read(engine, result, 0, sizeof(min), &min);
	if (status == CLWARP_OK)
		status = clwarp_reduce(engine, CLWARP_TYPE_INT, data, result, n, CLWARP_OP_MAX,
				NULL);
	if (status == CLWARP_OK)
		status = clwarp_buffer_read(engine, result, 0, sizeof(max), &max);
	if (status != CLWARP_OK) {
		report("reduce", status);
		goto out;
	}
	/* Unsigned adds: the wrap-around of cl_int without C's signed overflow. */
	for (i = 0; i < n; i++) {
		host_sum = (cl_int)((cl_uint)host_sum + (cl_uint)host[i]);
		host_min = host[i] < host_min ? host[i] : host_min;
		host_max = host[i] > host_max ? host[i] : host_max;
	}
	printf("sum: %d\nmin: %d\nmax: %d\n", (int)sum, (int)min, (int)max);
	mismatch = sum != host_sum || min != host_min || max != host_max;

	status = clwarp_scan(engine, CLWARP_TYPE_INT, data, scanned, n, CLWARP_OP_ADD,
			CLWARP_SCAN_INCLUSIVE, NULL);
	if (status == CLWARP_OK && n)
		status = clwarp_buffer_read(engine, scanned, 0, bytes, device_out);
	if (status != CLWARP_OK) {
		report("scan", status);
		goto out;
	}
	print_list("inclusive scan", device_out, n);
	for (i = 0; i < n; i++)
		expect[i] = (cl_int)((cl_uint)(i ? expect[i - 1] : 0) + (cl_uint)host[i]);
	mismatch |= n && memcmp(device_out, expect, bytes) != 0;

	status = clwarp_sort_keys(engine, CLWARP_TYPE_INT, data, n, 0, NULL);
	if (status == CLWARP_OK && n)
		status = clwarp_buffer_read(engine, data, 0, bytes, device_out);
	if (status != CLWARP_OK) {
		report("sort", status);
		goto out;
	}
	print_list("sorted", device_out, n);
	memcpy(expect, host, bytes);
	qsort(expect, n, sizeof(*expect), compare_int);
	mismatch |= n && memcmp(device_out, expect, bytes) != 0;

	if (mismatch)
		fprintf(stderr, "algorithms: a result differs from the host's\n");
	else
		printf("the host agrees\n");
	rc = mismatch;
out:
	if (data)
		clReleaseMemObject(data);
	if (scanned)
		clReleaseMemObject(scanned);
	if (result)
		clReleaseMemObject(result);
	clwarp_engine_free(engine);
	free(host);
	free(device_out);
	free(expect);
	return rc;
}
