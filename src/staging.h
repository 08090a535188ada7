/* Blocking copies from ordinary host memory staged through pinned chunks
 * kept by the engine (src/staging.c), for clwarp_buffer_write/read
 * (src/buffer.c) and the device groups' scatter and gather (src/group_run.c). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_STAGING_H
#define CLWARP_STAGING_H

#include <pthread.h>
#include <stdbool.h>

#include "clwarp/clwarp.h"
#include "workers.h"

#define STAGING_MAX_CHUNKS 64

struct staging_chunk {
	cl_mem mem;     /* the mapped CL_MEM_ALLOC_HOST_PTR buffer; NULL: malloc'd (force only) */
	void *host;     /* NULL until first leased */
	bool busy;      /* leased by a copy in progress */
};

struct staging {
	pthread_mutex_t lock;        /* guards busy, failed and the chunks' allocation */
	/* The knobs (CLWARP_STAGING, docs/copies.md). */
	size_t threshold;            /* copies below it go direct */
	size_t chunk;                /* bytes per chunk, the largest piece */
	unsigned chunks;             /* chunks at most; 0: never stage */
	unsigned threads;            /* host threads copying per call, the caller included */
	bool force;                  /* stage where the driver pins nothing too (tests) */
	size_t stream;               /* writes below it fill chunks with host_copy_for_device; 0: never */
	bool failed;                 /* pinning failed once: direct from then on */
	struct staging_chunk slot[STAGING_MAX_CHUNKS];
	struct workers workers;      /* the copies' host threads, started on first use */
};

/* The defaults, and the lock; before any other call. */
void staging_init(struct staging *staging);

/* Apply CLWARP_STAGING="key=value,..." (NULL: the defaults only). Sets
 * this thread's error on bad input. */
clwarp_status staging_configure(struct staging *staging, const char *text);

/* Whether a copy of @p bytes from @p host would be staged on this engine
 * (big enough, a GPU that pins or force, not memory from clwarp_host_buffer_new). */
bool staging_applies(clwarp_engine *engine, size_t bytes, const void *host);

/* A blocking copy of @p bytes (> 0, range checked) between @p host and
 * @p buffer at @p offset. Staged where staging_applies and chunks can be
 * leased, else one blocking enqueue on the engine's queue (the driver's
 * own path). Sets this thread's error on failure. */
clwarp_status staging_copy(clwarp_engine *engine, cl_mem buffer, size_t offset, size_t bytes,
			   void *host, bool write);

/* Give the chunks back (clwarp_engine_free): waits for the engine's queue
 * first if any was made. */
void staging_free(clwarp_engine *engine);

#endif
