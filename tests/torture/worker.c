/* Cache torture test: one worker process, public API only (see torture.h for the protocol). */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clwarp/clwarp.h"
#include "torture.h"

/* WORKER_STATUS_FD when the driver set CLWARP_TORTURE_STATUS, else -1 (run by hand). */
static int status_fd = -1;

/* One line to the driver; a closed or missing fd only loses the line. */
static void
report(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	if (status_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n > (int)sizeof(line) - 2)
		return;
	line[n++] = '\n';
	while (write(status_fd, line, (size_t)n) < 0 && errno == EINTR)
		;
}

struct job {
	const struct torture_program *prog;
	int p, c;
};

static int
parse_job(const char *text, struct job *job)
{
	char *end;
	long p = strtol(text, &end, 10), c;

	if (end == text || *end != ':' || p < 0 || (size_t)p >= torture_program_count)
		return -1;
	c = strtol(end + 1, &end, 10);
	if (*end || c < 1 || c > 1000000)
		return -1;
	job->p = (int)p;
	job->c = (int)c;
	job->prog = &torture_programs[p];
	return 0;
}

/* The source with its one "%d" replaced by c (a format string that is not a
 * literal would trip -Wformat-nonliteral). */
static void
put_constant(char *text, size_t size, const char *source, int c)
{
	const char *at = strstr(source, "%d");
	int head = at ? (int)(at - source) : (int)strlen(source);

	snprintf(text, size, "%.*s%d%s", head, source, c, at ? at + 2 : "");
}

static clwarp_status
build(clwarp_engine *e, const char *incdir, const struct job *job, clwarp_program **prog,
      clwarp_build_info *info)
{
	const struct torture_program *t = job->prog;
	char name[64], options[4200], path[4200], text[2048];

	snprintf(name, sizeof(name), "torture-%s.cl", t->name);
	snprintf(options, sizeof(options), "-DC=%d", job->c);
	switch (t->build) {
	case BUILD_TEXT:
		put_constant(text, sizeof(text), t->source, job->c);
		return clwarp_program_build_source(e, text, name, NULL, prog, info);
	case BUILD_OPTION:
		return clwarp_program_build_source(e, t->source, name, options, prog, info);
	case BUILD_FILE:
		snprintf(path, sizeof(path), "%s/%s", incdir, TORTURE_INCFILE);
		return clwarp_program_build_file(e, path, options, prog, info);
	case BUILD_INCPATH:
		snprintf(options, sizeof(options), "-I %s -DC=%d", incdir, job->c);
		return clwarp_program_build_source(e, t->source, name, options, prog, info);
	}
	return CLWARP_ERROR_INVALID_ARGUMENT;
}

/* Builds, runs and checks one job: 0 all values right, 1 some wrong, -1 an API failure. */
static int
run_job(clwarp_engine *e, const char *incdir, int k, uint64_t seed, const struct job *job)
{
	const struct torture_program *t = job->prog;
	clwarp_program *prog = NULL;
	clwarp_kernel *kernel = NULL;
	clwarp_build_info info;
	cl_mem bin = NULL, bout = NULL;
	int32_t in[TORTURE_ITEMS];
	unsigned char out[TORTURE_ITEMS * 8];
	size_t global = TORTURE_ITEMS, local = TORTURE_LOCAL;
	unsigned warp_size = 1;
	clwarp_backend backend;
	char kname[64];
	const char *what;
	int wrong = 0, result = -1;

	report("B %d:%d", job->p, job->c);
	what = "build";
	if (build(e, incdir, job, &prog, &info) != CLWARP_OK) {
		if (info.log)
			fprintf(stderr, "%s\n", info.log);
		clwarp_build_info_free(&info);
		goto out;
	}
	report("R %d:%d %s", job->p, job->c, clwarp_build_source_name(info.source));
	clwarp_build_info_free(&info);

	for (size_t i = 0; i < TORTURE_ITEMS; i++)
		in[i] = torture_input(seed, i);
	memset(out, 0xa5, sizeof(out));
	snprintf(kname, sizeof(kname), "t_%s", t->name);
	what = "run";
	if (clwarp_kernel_new(prog, kname, &kernel) != CLWARP_OK ||
	    (t->warp && clwarp_kernel_warp_info(kernel, 1, &local, &backend, &warp_size) != CLWARP_OK) ||
	    clwarp_buffer_new(e, CL_MEM_READ_ONLY, sizeof(in), in, &bin) != CLWARP_OK ||
	    clwarp_buffer_new(e, CL_MEM_WRITE_ONLY, TORTURE_ITEMS * t->out_size, NULL, &bout) !=
		    CLWARP_OK ||
	    clwarp_kernel_set_arg_buffer(kernel, 0, bin) != CLWARP_OK ||
	    clwarp_kernel_set_arg_buffer(kernel, 1, bout) != CLWARP_OK ||
	    clwarp_kernel_launch(kernel, 1, &global, &local, NULL) != CLWARP_OK ||
	    clwarp_buffer_read(e, bout, 0, TORTURE_ITEMS * t->out_size, out) != CLWARP_OK)
		goto out;
	if (warp_size == 0 || TORTURE_LOCAL % warp_size != 0) {
		fprintf(stderr, "torture-worker: warp width %u does not divide %d\n", warp_size,
			TORTURE_LOCAL);
		goto out;
	}

	for (size_t i = 0; i < TORTURE_ITEMS; i++) {
		uint64_t want = t->reference(in, i, job->c, k, warp_size), got;

		if (t->out_size == 8) {
			memcpy(&got, out + i * 8, 8);
		} else {
			uint32_t v;

			memcpy(&v, out + i * 4, 4);
			got = v;
			want = (uint32_t)want;
		}
		if (got != want && wrong++ < 5)
			fprintf(stderr,
				"torture-worker: %s C=%d K=%d item %zu: 0x%llx, expected 0x%llx\n",
				t->name, job->c, k, i, (unsigned long long)got,
				(unsigned long long)want);
	}
	if (wrong)
		report("X %d:%d %d", job->p, job->c, wrong);
	else
		report("K %d:%d", job->p, job->c);
	result = wrong ? 1 : 0;
out:
	if (result < 0)
		fprintf(stderr, "torture-worker: %s of %s C=%d failed: %s\n", what, t->name, job->c,
			clwarp_last_error());
	if (bin)
		clReleaseMemObject(bin);
	if (bout)
		clReleaseMemObject(bout);
	clwarp_kernel_free(kernel);
	return result;
}

int
main(int argc, char **argv)
{
	clwarp_engine *e = NULL;
	struct job job;
	uint64_t seed;
	int k, failed = 0, wrong = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: %s INCDIR K SEED P:C...\n", argv[0]);
		return WORKER_EXIT_USAGE;
	}
	/* Not inherited by what PoCL runs (the linker), which could outlive us. */
	if (getenv("CLWARP_TORTURE_STATUS") && fcntl(WORKER_STATUS_FD, F_SETFD, FD_CLOEXEC) == 0)
		status_fd = WORKER_STATUS_FD;
	k = atoi(argv[2]);
	seed = strtoull(argv[3], NULL, 10);
	for (int i = 4; i < argc; i++) {
		if (parse_job(argv[i], &job) != 0) {
			fprintf(stderr, "torture-worker: bad job \"%s\"\n", argv[i]);
			return WORKER_EXIT_USAGE;
		}
	}

	report("E");
	/* Everything from the environment: CLWARP_CACHE_DIR, CLWARP_CACHE_MAX_BYTES,
	 * and CLWARP_DEVICE / CLWARP_BACKEND where the caller set them. */
	if (clwarp_engine_new(NULL, &e) != CLWARP_OK) {
		fprintf(stderr, "torture-worker: engine: %s\n", clwarp_last_error());
		return WORKER_EXIT_FAILED;
	}
	for (int i = 4; i < argc; i++) {
		int r;

		parse_job(argv[i], &job);
		r = run_job(e, argv[1], k, seed, &job);
		if (r < 0)
			failed++;
		else if (r > 0)
			wrong++;
	}
	clwarp_engine_free(e);
	if (wrong)
		return WORKER_EXIT_WRONG;
	return failed ? WORKER_EXIT_FAILED : WORKER_EXIT_OK;
}
