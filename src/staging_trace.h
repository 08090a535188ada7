/* A staged copy's timeline, piece by piece, at log level debug
 * (src/staging_trace.c): where the time of a staged copy goes. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_STAGING_TRACE_H
#define CLWARP_STAGING_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "clwarp/clwarp.h"
#include "log.h"

/* Pieces recorded per copy at most; later ones are counted, not kept. */
#define STAGING_TRACE_MAX 4096u

/* One piece. Host times in ms from the copy's start (now_ms); device
 * times in ns of the device's clock, 0 where the queue keeps no profile. */
struct staging_trace_piece {
	size_t at, bytes;
	unsigned lane;
	double taken;       /* handed to its lane */
	double copied;      /* write: memcpy into the chunk done; read: memcpy out done */
	double enqueued;    /* clEnqueue*Buffer and clFlush returned */
	double waited;      /* its event waited for (clWaitForEvents returned) */
	cl_ulong dma_start, dma_end;
};

struct staging_trace {
	double t0;
	unsigned count;     /* pieces handed out, recorded or not */
	struct staging_trace_piece *piece;   /* NULL: not tracing */
};

/* Start tracing a copy where `logger` keeps debug messages (and memory
 * for the records was had); otherwise every call below does nothing. */
void staging_trace_begin(struct staging_trace *t, const struct clwarp_logger *logger);

/* The record of piece `seq`, or NULL (not tracing, or past the cap). */
struct staging_trace_piece *staging_trace_at(struct staging_trace *t, unsigned seq);

/* Now, in the trace's ms (0 when not tracing). */
double staging_trace_now(const struct staging_trace *t);

/* Note the device's start and end of a finished command (profiling queues). */
void staging_trace_dma(struct staging_trace_piece *p, cl_event ev);

/* One summary line and a line per piece at debug level; frees the records. */
void staging_trace_end(struct staging_trace *t, const struct clwarp_logger *logger, bool write,
		       size_t bytes, unsigned lanes);

#endif
