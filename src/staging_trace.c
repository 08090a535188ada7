/* A staged copy's timeline at log level debug. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "staging_trace.h"

#include <stdlib.h>

#include "util.h"

/*
 * Why: a staged copy of 64 MiB took 1.8-2.1 ms on an H200 where its
 * memcpy alone takes 1.0 ms and the DMA 1.2 ms (docs/design/copies.md). Whether
 * the DMA engine waits for the host (gaps between DMAs), runs slower than
 * from pinned memory (contention for host memory), or starts late and
 * ends long after the last memcpy, shows only piece by piece. The records
 * are written without a lock: each piece belongs to the one lane that
 * took it.
 */

void
staging_trace_begin(struct staging_trace *t, const struct clwarp_logger *logger)
{
	*t = (struct staging_trace){ 0 };
	if (!logger || logger->level < CLWARP_LOG_DEBUG)
		return;
	t->piece = calloc(STAGING_TRACE_MAX, sizeof(*t->piece));
	t->t0 = now_ms();
}

struct staging_trace_piece *
staging_trace_at(struct staging_trace *t, unsigned seq)
{
	return t->piece && seq < STAGING_TRACE_MAX ? &t->piece[seq] : NULL;
}

double
staging_trace_now(const struct staging_trace *t)
{
	return t->piece ? now_ms() - t->t0 : 0.0;
}

void
staging_trace_dma(struct staging_trace_piece *p, cl_event ev)
{
	if (!p || !ev)
		return;
	if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(p->dma_start),
				    &p->dma_start, NULL) != CL_SUCCESS ||
	    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(p->dma_end),
				    &p->dma_end, NULL) != CL_SUCCESS)
		p->dma_start = p->dma_end = 0;
}

void
staging_trace_end(struct staging_trace *t, const struct clwarp_logger *logger, bool write,
		  size_t bytes, unsigned lanes)
{
	unsigned kept = t->count < STAGING_TRACE_MAX ? t->count : STAGING_TRACE_MAX;
	cl_ulong first = 0, last = 0, busy = 0, gaps = 0, widest = 0;
	double wall = staging_trace_now(t), copied = 0.0;

	if (!t->piece)
		return;
	/* The DMAs' span and sum, and the idle time between one DMA's end
	 * and the next start (device time; DMAs run in enqueue order, not
	 * necessarily in piece order). */
	for (unsigned i = 0; i < kept; i++) {
		const struct staging_trace_piece *p = &t->piece[i];

		if (p->copied > copied)
			copied = p->copied;
		if (!p->dma_end)
			continue;
		if (!first || p->dma_start < first)
			first = p->dma_start;
		if (p->dma_end > last)
			last = p->dma_end;
		busy += p->dma_end - p->dma_start;
	}
	for (unsigned i = 0; i < kept; i++) {
		/* The DMA that started next after piece i's ended. */
		const struct staging_trace_piece *p = &t->piece[i];
		cl_ulong next = 0;

		if (!p->dma_end)
			continue;
		for (unsigned j = 0; j < kept; j++)
			if (t->piece[j].dma_start >= p->dma_end &&
			    (!next || t->piece[j].dma_start < next))
				next = t->piece[j].dma_start;
		if (next) {
			gaps += next - p->dma_end;
			if (next - p->dma_end > widest)
				widest = next - p->dma_end;
		}
	}
	log_debug(logger,
		  "staging trace: %s of %zu bytes, %u pieces, %u lanes: %.3f ms wall, last memcpy "
		  "done at %.3f ms; DMA span %.3f ms, busy %.3f ms (%.1f GB/s), gaps %.3f ms "
		  "(widest %.3f ms)",
		  write ? "write" : "read", bytes, t->count, lanes, wall, copied,
		  (double)(last - first) / 1e6, (double)busy / 1e6,
		  busy ? (double)bytes / (double)busy : 0.0, (double)gaps / 1e6,
		  (double)widest / 1e6);
	for (unsigned i = 0; i < kept; i++) {
		const struct staging_trace_piece *p = &t->piece[i];

		log_debug(logger,
			  "staging trace: piece %u lane %u at %zu bytes %zu: taken %.3f copied %.3f "
			  "enqueued %.3f waited %.3f; DMA %.3f-%.3f ms",
			  i, p->lane, p->at, p->bytes, p->taken, p->copied, p->enqueued, p->waited,
			  p->dma_end ? (double)(p->dma_start - first) / 1e6 : 0.0,
			  p->dma_end ? (double)(p->dma_end - first) / 1e6 : 0.0);
	}
	free(t->piece);
	t->piece = NULL;
}
