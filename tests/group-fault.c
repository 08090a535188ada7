/* A device that dies mid-job (docs/multidevice.md, "Errors and faults"):
 * run by CI's PoCL-R step, which kills one pocld server while this runs
 * group reduces on two remote devices.
 * Usage: group-fault READY_FILE DEAD_DEVICE
 *
 * Every reduce result is checked against the host's sum until a call
 * fails; once one has passed, READY_FILE is created (the step then kills
 * the server). The group has a time limit of 10 s (PoCL-R's client never
 * fails a command to a lost server; it retries the connection forever).
 * The failure must name DEAD_DEVICE ("device N ("), no call
 * may have returned a wrong sum, and afterwards the other devices must
 * still work: a group reduce with all the data on them, and a plain
 * clwarp_reduce on their engines (a PoCL-R server that loses its peer
 * needs .ci/poclr-peer-loss.patch for that). Exit 0 when all of that
 * holds; 1 with a message otherwise; 3 when no call failed within the time
 * (the server was not killed, or its death went unnoticed); a hang ends in
 * SIGALRM. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clwarp/clwarp.h"

#define N (1u << 20)
#define SECONDS 60

static cl_long
host_sum(const cl_int *v, size_t n)
{
	cl_long s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

static int
fail(const char *what)
{
	fprintf(stderr, "group-fault: %s: %s\n", what, clwarp_last_error());
	return 1;
}

int
main(int argc, char **argv)
{
	clwarp_group *g = NULL;
	size_t offsets[CLWARP_GROUP_MAX_DEVICES + 1], count, dead, calls = 0;
	cl_mem in[CLWARP_GROUP_MAX_DEVICES];
	cl_int *host = malloc(N * sizeof(cl_int)), result32;
	cl_long result, want;
	clwarp_status s = CLWARP_OK;
	char needle[32];
	time_t start;

	if (argc != 3 || !host) {
		fprintf(stderr, "usage: group-fault READY_FILE DEAD_DEVICE\n");
		return 2;
	}
	dead = strtoul(argv[2], NULL, 10);
	alarm(SECONDS + 60);
	for (size_t i = 0; i < N; i++)
		host[i] = (cl_int)(i % 1000) - 500 + (cl_int)(i / 1000 % 7);
	want = host_sum(host, N);
	if (clwarp_group_new(NULL, NULL, &g) != CLWARP_OK)
		return fail("clwarp_group_new");
	count = clwarp_group_size(g);
	/* PoCL-R's client retries a lost server forever: without a time limit
	 * the call would wait for ever too. */
	if (clwarp_group_set_timeout(g, 10.0) != CLWARP_OK)
		return fail("clwarp_group_set_timeout");
	if (dead >= count || count < 2) {
		fprintf(stderr, "group-fault: %zu devices; device %zu cannot be the dead one\n", count, dead);
		return 1;
	}
	if (clwarp_group_split(g, N, 1, offsets) != CLWARP_OK ||
	    clwarp_group_scatter(g, host, in, offsets, sizeof(cl_int)) != CLWARP_OK)
		return fail("setting up");
	start = time(NULL);
	while (time(NULL) - start < SECONDS) {
		s = clwarp_group_reduce(g, CLWARP_TYPE_INT, in, &result32, offsets, CLWARP_OP_ADD);
		if (s != CLWARP_OK)
			break;
		calls++;
		if (result32 != (cl_int)want) {
			fprintf(stderr, "group-fault: call %zu returned %d, expected %d: a wrong result\n", calls,
				result32, (cl_int)want);
			return 1;
		}
		if (calls == 1) {
			FILE *f = fopen(argv[1], "w");

			if (f)
				fclose(f);
		}
	}
	if (s == CLWARP_OK) {
		fprintf(stderr, "group-fault: %zu calls in %d s and none failed\n", calls, SECONDS);
		return 3;
	}
	printf("group-fault: call %zu failed as expected: %s (%s)\n", calls + 1, clwarp_status_name(s),
	       clwarp_last_error());
	snprintf(needle, sizeof(needle), "device %zu (", dead);
	if (!strstr(clwarp_last_error(), needle)) {
		fprintf(stderr, "group-fault: the message does not name %s\n", needle);
		return 1;
	}
	/* The others still work: all the data on them, through the group ... */
	size_t moved[CLWARP_GROUP_MAX_DEVICES + 1];
	cl_mem alive[CLWARP_GROUP_MAX_DEVICES];
	size_t keep = dead == 0 ? 1 : 0;

	for (size_t i = 0; i <= count; i++)
		moved[i] = i <= keep ? 0 : N;
	for (size_t i = 0; i < count; i++)
		alive[i] = in[i == dead ? keep : i];
	clwarp_engine *e = clwarp_group_engine(g, keep);
	cl_mem whole;

	if (clwarp_buffer_new(e, CL_MEM_READ_WRITE, N * sizeof(cl_int), host, &whole) != CLWARP_OK)
		return fail("a buffer on a live device");
	alive[keep] = whole;
	s = clwarp_group_reduce(g, CLWARP_TYPE_INT, alive, &result32, moved, CLWARP_OP_ADD);
	if (s != CLWARP_OK)
		return fail("a group reduce on the live device");
	if (result32 != (cl_int)want) {
		fprintf(stderr, "group-fault: live device: %d, expected %d\n", result32, (cl_int)want);
		return 1;
	}
	/* ... and as a plain engine. */
	cl_mem one;

	if (clwarp_buffer_new(e, CL_MEM_READ_WRITE, sizeof(cl_long), NULL, &one) != CLWARP_OK)
		return fail("a buffer on a live device");
	if (clwarp_reduce(e, CLWARP_TYPE_INT, whole, one, N, CLWARP_OP_ADD, NULL) != CLWARP_OK ||
	    clwarp_buffer_read(e, one, 0, sizeof(cl_int), &result32) != CLWARP_OK)
		return fail("clwarp_reduce on the live device");
	result = result32;
	if (result != (cl_int)want) {
		fprintf(stderr, "group-fault: live engine: %lld, expected %d\n", (long long)result, (cl_int)want);
		return 1;
	}
	printf("group-fault: %zu good calls before the failure; device %zu still gives the right sum\n",
	       calls, keep);
	/* Nothing is freed: releasing the dead device's objects would talk to
	 * a server that is gone; the process ends here. */
	return 0;
}
