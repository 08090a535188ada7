/* Benchmark: cold compile vs disk hit (fresh process) vs memory hit, for one program. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clwarp/clwarp.h"

/* A kernel of realistic size: a warp-level row reduction plus a scan. */
static const char *bench_source =
	"kernel void row_stats(global const float *in, global float *sum, global float *scan, uint n)\n"
	"{\n"
	"	uint i = get_global_id(0);\n"
	"	float v = i < n ? in[i] : 0.0f;\n"
	"	float s = warp_reduce_add(v);\n"
	"	float m = warp_reduce_max(v);\n"
	"	float p = warp_scan_inclusive_add(v);\n"
	"	if (warp_lane_id() == 0)\n"
	"		sum[i / warp_size()] = s + m;\n"
	"	scan[i] = p + warp_shuffle_down(v, 1u) + warp_shuffle_xor(v, 2u);\n"
	"}\n";

enum { RUNS = 9 };

/* The program as a file that includes another, both an hour old (a file
 * changed within the last 2 s is read again on every build: src/filestamp.c). */
static int
write_program_files(const char *dir, char *main_path, size_t size)
{
	char inc_path[4200];
	struct timespec times[2];
	FILE *f;

	snprintf(inc_path, sizeof(inc_path), "%s/row_stats.h", dir);
	snprintf(main_path, size, "%s/row_stats.cl", dir);
	clock_gettime(CLOCK_REALTIME, &times[0]);
	times[0].tv_sec -= 3600;
	times[1] = times[0];
	if (!(f = fopen(inc_path, "w")) || fputs(bench_source, f) < 0 || fclose(f) != 0 ||
	    !(f = fopen(main_path, "w")) || fputs("#include \"row_stats.h\"\n", f) < 0 || fclose(f) != 0 ||
	    utimensat(AT_FDCWD, inc_path, times, 0) != 0 || utimensat(AT_FDCWD, main_path, times, 0) != 0)
		return -1;
	return 0;
}

/* Child: build once (or 2 times for a memory hit) and print the last build's
 * ms. Modes: cold, disk, memory (a string), memory-file (a file and its include). */
static int
child(const char *mode, const char *cache_dir)
{
	clwarp_engine_options o;
	clwarp_engine *e;
	clwarp_program *p;
	clwarp_build_info info;
	int builds = strncmp(mode, "memory", 6) == 0 ? 2 : 1;
	char path[4300] = "";

	clwarp_engine_options_init(&o);
	o.cache_dir = cache_dir;
	if (clwarp_engine_new(&o, &e) != CLWARP_OK)
		goto fail;
	/* Resolve the backend first so only the build itself is timed. */
	if (clwarp_engine_backend(e, NULL, NULL) != CLWARP_OK)
		goto fail;
	/* the engine made cache_dir: the files go there too */
	if (strcmp(mode, "memory-file") == 0 && write_program_files(cache_dir, path, sizeof(path)) != 0) {
		perror("cache-bench: writing the program files");
		return 1;
	}
	for (int i = 0; i < builds; i++) {
		clwarp_status s = path[0]
			? clwarp_program_build_file(e, path, NULL, &p, &info)
			: clwarp_program_build_source(e, bench_source, "bench.cl", NULL, &p, &info);

		if (s != CLWARP_OK)
			goto fail;
		if (i + 1 < builds)
			clwarp_build_info_free(&info);
	}
	printf("%s %.6f\n", clwarp_build_source_name(info.source), info.milliseconds);
	clwarp_build_info_free(&info);
	clwarp_engine_free(e);
	return 0;
fail:
	fprintf(stderr, "cache-bench: %s\n", clwarp_last_error());
	return 1;
}

static double
run_child(const char *self, const char *mode, const char *dir, const char *want)
{
	char cmd[8192], got[32];
	double ms = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "'%s' --child %s '%s'", self, mode, dir);
	f = popen(cmd, "r");
	if (!f || fscanf(f, "%31s %lf", got, &ms) != 2 || strcmp(got, want) != 0) {
		fprintf(stderr, "cache-bench: the %s run did not report a %s build\n", mode, want);
		exit(1);
	}
	pclose(f);
	return ms;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double
median(double *v)
{
	qsort(v, RUNS, sizeof(double), cmp_double);
	return v[RUNS / 2];
}

int
main(int argc, char **argv)
{
	char base[] = "/tmp/clwarp-cache-bench-XXXXXX", dir[256], cmd[600], self[4096];
	double cold[RUNS], disk[RUNS], memory[RUNS], memory_file[RUNS];
	ssize_t len;

	if (argc == 4 && strcmp(argv[1], "--child") == 0)
		return child(argv[2], argv[3]);
	/* popen runs a shell, so /proc/self/exe must be resolved here. */
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return 1;
	self[len] = '\0';
	if (!mkdtemp(base))
		return 1;
	/* PoCL keeps a kernel cache of its own; without this "cold" would hit it. */
	setenv("POCL_KERNEL_CACHE", "0", 1);
	unsetenv("CLWARP_CACHE");
	for (int r = 0; r < RUNS; r++) {
		snprintf(dir, sizeof(dir), "%s/run%d", base, r);
		cold[r] = run_child(self, "cold", dir, "compiled");
		disk[r] = run_child(self, "disk", dir, "disk");
		memory[r] = run_child(self, "memory", dir, "memory");
		snprintf(dir, sizeof(dir), "%s/files%d", base, r);
		memory_file[r] = run_child(self, "memory-file", dir, "memory");
	}
	printf("libclwarp program cache, one warp-reduction program, medians of %d runs\n", RUNS);
	printf("%-34s %12s %10s\n", "build", "median ms", "vs cold");
	printf("%-34s %12.3f %10s\n", "cold compile (empty cache)", median(cold), "1");
	printf("%-34s %12.3f %9.1fx\n", "disk hit (fresh process)", median(disk),
	       median(cold) / median(disk));
	printf("%-34s %12.4f %9.0fx\n", "memory hit, string (same engine)", median(memory),
	       median(cold) / median(memory));
	printf("%-34s %12.4f %9.0fx\n", "memory hit, file + include", median(memory_file),
	       median(cold) / median(memory_file));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : 1;
}
