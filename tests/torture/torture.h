/* Cache torture test: what the driver (torture) and its workers (torture-worker) share. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TORTURE_H
#define CLWARP_TORTURE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A worker is run as
 *   torture-worker INCDIR K SEED JOB...
 * with the cache folder and its bound in CLWARP_CACHE_DIR and
 * CLWARP_CACHE_MAX_BYTES. JOB is "P:C": program P of torture_programs[],
 * built with the constant C. K is the TORTURE_K that INCDIR/torture_k.h
 * defines this round; SEED picks the input values.
 *
 * With CLWARP_TORTURE_STATUS set (the driver sets it), it reports on fd
 * WORKER_STATUS_FD, one line per event:
 *   "E"             creating its engine
 *   "B P:C"         building a job
 *   "R P:C SOURCE"  built (SOURCE: compiled, disk or memory), running it
 *   "K P:C"         every output value matched the host reference
 *   "X P:C N"       N output values were wrong
 * and exits with one of the statuses below. Anything else (another exit
 * status, a signal the driver did not send) is a crash.
 */
#define WORKER_STATUS_FD 3

enum {
	WORKER_EXIT_OK = 0,
	WORKER_EXIT_FAILED = 10, /* an API call failed: the cache must never make one fail */
	WORKER_EXIT_WRONG = 11,  /* a kernel result differed from the host reference */
	WORKER_EXIT_USAGE = 12,
};

/* Work size of every job: TORTURE_ITEMS work-items in groups of TORTURE_LOCAL. */
#define TORTURE_ITEMS 1024
#define TORTURE_LOCAL 64

/* The header every include program pulls in; the driver rewrites it between rounds. */
#define TORTURE_K_HEADER "torture_k.h"
/* The file that the "incfile" program is built from, next to the header. */
#define TORTURE_INCFILE "incfile.cl"

/* Names the cache gives its files (src/diskcache.h, src/diskcache_folder.h):
 * entries are <64 hex digits>.<kind>, temp files .tmp-XXXXXX. */
#define TORTURE_TMP_PREFIX ".tmp-"

enum torture_build {
	BUILD_TEXT,    /* source text with C printed into it */
	BUILD_OPTION,  /* fixed text, -DC=C */
	BUILD_FILE,    /* INCDIR/incfile.cl, which includes "torture_k.h"; -DC=C */
	BUILD_INCPATH, /* source text including "torture_k.h" through -I INCDIR; -DC=C */
};

struct torture_program {
	const char *name;        /* the kernel is t_<name> */
	enum torture_build build;
	const char *source;      /* BUILD_TEXT: a printf format with one %d for C */
	size_t out_size;         /* bytes per output value: 4 or 8 */
	int warp;                /* uses the warp API: needs the warp width */
	/* Expected output of work-item i for input in[] (the whole array). */
	uint64_t (*reference)(const int32_t *in, size_t i, int c, int k, unsigned warp_size);
};

extern const struct torture_program torture_programs[];
extern const size_t torture_program_count;

/* Text of INCDIR/incfile.cl, written by the driver. */
extern const char torture_incfile_text[];

/* The input value of item i for a seed: small enough that no kernel overflows a signed int. */
int32_t torture_input(uint64_t seed, size_t i);

#endif
