/* Blocking copies from ordinary host memory through pinned chunks kept by
 * the engine: several chunks in flight, host threads copying into them. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "staging.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "error.h"
#include "hostmem.h"
#include "util.h"

/*
 * Why: NVIDIA's OpenCL copies malloc'd memory at 6-8 GB/s (write) and
 * 14 GB/s (read) on H200s, pinned memory at 55 GB/s (docs/copies.md). A
 * copy through pinned chunks costs a memcpy on the host per byte, which
 * one thread does at about 10 GB/s: so each of up to `threads` host
 * threads runs a pipeline of its own over every threads-th piece, with
 * two or more chunks, memcpy into one chunk while the DMA of the other
 * runs (non-blocking enqueues, one event per chunk).
 */
/* Measured on an H200 (docs/copies.md, "Tuning"): staged copies lose to
 * the driver's pageable path at 1-4 MiB and win from 16 MiB; 32 chunks of
 * 2 MiB and 12 threads reach 0.62-0.91 of pinned from 64 MiB, where 8 of
 * 4 MiB and 4 threads reached 0.40-0.53. */
#define DEFAULT_THRESHOLD ((size_t)16 << 20)
#define DEFAULT_CHUNK ((size_t)2 << 20)
#define DEFAULT_CHUNKS 32u
#define DEFAULT_THREADS 12u
/* Pieces smaller than this cost more in enqueues than they overlap. */
#define PIECE_MIN ((size_t)64 << 10)
/* Bytes per host thread at least: starting and joining 3 threads took
 * 53 us here, as long as 1 MiB takes at 20 GB/s; 4 MiB at a thread's
 * memcpy speed (about 10 GB/s) takes 400 us. */
#define LANE_MIN ((size_t)4 << 20)

void
staging_init(struct staging *s)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	s->threshold = DEFAULT_THRESHOLD;
	s->chunk = DEFAULT_CHUNK;
	s->chunks = DEFAULT_CHUNKS;
	/* More memcpy threads than cores only take turns. */
	s->threads = cpus > 0 && (unsigned long)cpus < DEFAULT_THREADS ? (unsigned)cpus : DEFAULT_THREADS;
}

/* A size: decimal digits with an optional K, M or G suffix. */
static bool
parse_size(const char *p, const char **end, unsigned long long *out)
{
	char *e;
	unsigned long long v;
	unsigned shift = 0;

	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	v = strtoull(p, &e, 10);
	if (errno)
		return false;
	if (*e == 'K' || *e == 'k')
		shift = 10, e++;
	else if (*e == 'M' || *e == 'm')
		shift = 20, e++;
	else if (*e == 'G' || *e == 'g')
		shift = 30, e++;
	if (shift && v > (~0ULL >> shift))
		return false;
	*out = v << shift;
	*end = e;
	return true;
}

clwarp_status
staging_configure(struct staging *s, const char *text)
{
	static const char keys_help[] =
		"expected key=value[,key=value...] with keys threshold, chunk, chunks, threads, force";
	static const struct {
		const char *key;
		unsigned long long lo, hi;
	} keys[] = {
		{ "threshold", 0, SIZE_MAX },
		{ "chunk", 1, (unsigned long long)1 << 30 },
		{ "chunks", 0, STAGING_MAX_CHUNKS },
		{ "threads", 1, 64 },
		{ "force", 0, 1 },
	};
	const char *p = text;

	while (p && *p) {
		size_t len = strcspn(p, "=,"), k = 0;
		unsigned long long v;
		const char *end;

		while (k < ARRAY_LENGTH(keys) && !(strlen(keys[k].key) == len && !strncmp(keys[k].key, p, len)))
			k++;
		if (k == ARRAY_LENGTH(keys) || p[len] != '=')
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "CLWARP_STAGING=\"%s\": %s", text,
					 keys_help);
		p += len + 1;
		if (!parse_size(p, &end, &v) || (*end && *end != ',') || v < keys[k].lo || v > keys[k].hi)
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "CLWARP_STAGING=\"%s\": %s must be a whole number from %llu to %llu%s",
					 text, keys[k].key, keys[k].lo, keys[k].hi,
					 k < 2 ? " (K, M and G suffixes allowed)" : "");
		switch (k) {
		case 0: s->threshold = (size_t)v; break;
		case 1: s->chunk = (size_t)v; break;
		case 2: s->chunks = (unsigned)v; break;
		case 3: s->threads = (unsigned)v; break;
		default: s->force = v != 0; break;
		}
		p = *end ? end + 1 : end;
	}
	return CLWARP_OK;
}

bool
staging_applies(clwarp_engine *e, size_t bytes, const void *host)
{
	const struct staging *s = &e->staging;

	/* On CPU drivers the "device" copy is a memcpy already: staging would
	 * add a second one (the same test as clwarp_host_alloc's fallback). */
	if (s->chunks == 0 || bytes == 0 || bytes < s->threshold || !(s->force || host_pins_memory(e)))
		return false;
	/* Memory from clwarp_host_alloc is pinned already. */
	return !host_in_block(e, host);
}

/* ------------------------------------------------------------ chunks */

/* Up to `want` free chunks for this call, made on first use; 0 when none
 * is free or pinning failed. The slots are busy, thus ours, outside the lock. */
static unsigned
lease(clwarp_engine *e, unsigned want, unsigned *slots)
{
	struct staging *s = &e->staging;
	unsigned n = 0;
	bool fresh = false;

	pthread_mutex_lock(&s->lock);
	for (unsigned i = 0; i < s->chunks && n < want && !s->failed; i++) {
		if (!s->slot[i].busy) {
			s->slot[i].busy = true;
			slots[n++] = i;
			fresh |= !s->slot[i].host;
		}
	}
	pthread_mutex_unlock(&s->lock);
	for (unsigned k = 0; fresh && k < n; k++) {
		struct staging_chunk *c = &s->slot[slots[k]];
		cl_int err;

		if (c->host)
			continue;
		err = host_pin(e, s->chunk, &c->mem, &c->host);
		/* Ordinary chunks only where staging is forced (tests): on a GPU
		 * they would be as slow as the caller's memory, plus a memcpy. */
		if (err != CL_SUCCESS && s->force)
			c->host = aligned_alloc(4096, (s->chunk + 4095) & ~(size_t)4095);
		if (!c->host) {
			log_info(&e->logger, "pinning %zu bytes for staging failed (%s); copies go direct",
				 s->chunk, cl_error_name(err));
			pthread_mutex_lock(&s->lock);
			s->failed = true;
			for (unsigned j = 0; j < n; j++)
				s->slot[slots[j]].busy = false;
			pthread_mutex_unlock(&s->lock);
			return 0;
		}
	}
	return n;
}

static void
give_back(struct staging *s, const unsigned *slots, unsigned n)
{
	pthread_mutex_lock(&s->lock);
	for (unsigned k = 0; k < n; k++)
		s->slot[slots[k]].busy = false;
	pthread_mutex_unlock(&s->lock);
}

void
staging_free(clwarp_engine *e)
{
	struct staging *s = &e->staging;
	bool any = false;

	for (unsigned i = 0; i < STAGING_MAX_CHUNKS; i++)
		any |= s->slot[i].host != NULL;
	/* Copies are blocking, so none is in flight from a chunk; the unmaps
	 * below go on the queue after whatever the caller left there. */
	for (unsigned i = 0; i < STAGING_MAX_CHUNKS; i++) {
		struct staging_chunk *c = &s->slot[i];

		if (c->mem)
			host_unpin(e, c->mem, c->host);
		else
			free(c->host);
		c->mem = NULL;
		c->host = NULL;
	}
	if (any && e->queue)
		clFinish(e->queue);
	pthread_mutex_destroy(&s->lock);
}

/* ------------------------------------------------------------ the copy */

/* One host thread's pipeline: pieces first, first + stride, ... through
 * its chunks, round robin. */
struct lane {
	clwarp_engine *e;
	cl_mem buffer;
	size_t offset, bytes, piece, first, stride;
	unsigned char *host;
	bool write;
	unsigned nchunks;
	void *chunk[STAGING_MAX_CHUNKS];
	cl_int err;               /* the first failure */
	const char *what;
};

static void
fail(struct lane *l, cl_int err, const char *what)
{
	if (l->err == CL_SUCCESS) {
		l->err = err;
		l->what = what;
	}
}

/* Wait for and release a chunk's event, noting a failed command. */
static void
settle(struct lane *l, cl_event *ev)
{
	cl_int run = CL_COMPLETE;

	if (!*ev)
		return;
	if (clWaitForEvents(1, ev) != CL_SUCCESS ||
	    clGetEventInfo(*ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(run), &run, NULL) != CL_SUCCESS ||
	    run < 0)
		fail(l, run < 0 ? run : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
		     l->write ? "writing a staged chunk" : "reading a staged chunk");
	clReleaseEvent(*ev);
	*ev = NULL;
}

static void
enqueue(struct lane *l, size_t p, void *chunk, cl_event *ev)
{
	size_t at = p * l->piece, n = l->bytes - at < l->piece ? l->bytes - at : l->piece;
	cl_command_queue q = l->e->queue;
	cl_int err;

	if (l->write) {
		memcpy(chunk, l->host + at, n);
		err = clEnqueueWriteBuffer(q, l->buffer, CL_FALSE, l->offset + at, n, chunk, 0, NULL, ev);
	} else {
		err = clEnqueueReadBuffer(q, l->buffer, CL_FALSE, l->offset + at, n, chunk, 0, NULL, ev);
	}
	if (err != CL_SUCCESS) {
		*ev = NULL;
		fail(l, err, l->write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
		return;
	}
	/* Submit now: the DMA runs while this thread fills the next chunk. */
	clFlush(q);
}

static void *
lane_run(void *arg)
{
	struct lane *l = arg;
	size_t npieces = (l->bytes + l->piece - 1) / l->piece, next = l->first;
	size_t pending[STAGING_MAX_CHUNKS];
	cl_event ev[STAGING_MAX_CHUNKS] = { 0 };

	/* A write fills chunk k once its last DMA is done; a read primes every
	 * chunk, then empties chunk k and refills it. Each chunk waits for its
	 * own event: right on an out-of-order queue too, and on an in-order
	 * one chunk k's event is the next to complete. */
	for (unsigned k = 0; !l->write && k < l->nchunks && next < npieces; k++, next += l->stride) {
		enqueue(l, next, l->chunk[k], &ev[k]);
		pending[k] = next;
	}
	for (unsigned k = 0;; k = (k + 1) % l->nchunks) {
		if (l->write && next >= npieces)
			break;
		if (!l->write && !ev[k])
			break;
		settle(l, &ev[k]);
		if (l->err != CL_SUCCESS)
			break;
		if (!l->write) {
			size_t at = pending[k] * l->piece;
			size_t n = l->bytes - at < l->piece ? l->bytes - at : l->piece;

			memcpy(l->host + at, l->chunk[k], n);
			if (next >= npieces)
				continue;
		}
		enqueue(l, next, l->chunk[k], &ev[k]);
		pending[k] = next;
		next += l->stride;
		if (l->err != CL_SUCCESS)
			break;
	}
	/* Nothing may still use a chunk when it goes back. */
	for (unsigned k = 0; k < l->nchunks; k++)
		settle(l, &ev[k]);
	return NULL;
}

/* The staged copy itself, with `n` leased chunks in slots. */
static clwarp_status
staged(clwarp_engine *e, cl_mem buffer, size_t offset, size_t bytes, void *host, bool write,
       const unsigned *slots, unsigned n)
{
	const struct staging *s = &e->staging;
	struct lane lanes[64];
	pthread_t threads[64];
	bool started[64] = { 0 };
	size_t piece = bytes / 8, npieces;
	unsigned nlanes;

	/* About 8 pieces, so that even a copy of a few chunks overlaps. */
	piece = piece < PIECE_MIN ? PIECE_MIN : piece;
	piece = piece > s->chunk ? s->chunk : piece;
	if (piece > 4096)
		piece &= ~(size_t)4095;
	npieces = (bytes + piece - 1) / piece;
	/* Two chunks and two pieces a lane at least: a lane of one is serial. */
	nlanes = s->threads;
	if (nlanes > n / 2)
		nlanes = n / 2;
	if (nlanes > npieces / 2)
		nlanes = (unsigned)(npieces / 2);
	/* Tiny chunks (the tests') lower the bar: two chunks' worth a thread. */
	size_t lane_min = s->chunk < LANE_MIN / 2 ? 2 * s->chunk : LANE_MIN;

	if (nlanes > bytes / lane_min)
		nlanes = (unsigned)(bytes / lane_min);
	if (nlanes == 0)
		nlanes = 1;
	log_debug(&e->logger, "staged %s of %zu bytes: %zu pieces, %u chunks, %u threads",
		  write ? "write" : "read", bytes, npieces, n, nlanes);
	for (unsigned j = 0; j < nlanes; j++) {
		lanes[j] = (struct lane){ .e = e, .buffer = buffer, .offset = offset, .bytes = bytes,
					  .piece = piece, .first = j, .stride = nlanes, .host = host,
					  .write = write, .err = CL_SUCCESS };
		for (unsigned k = j; k < n; k += nlanes)
			lanes[j].chunk[lanes[j].nchunks++] = s->slot[slots[k]].host;
	}
	/* Threads per call: a pool would outlive the engine's users for
	 * nothing; a start costs tens of microseconds against the
	 * milliseconds of a copy this size. Where none starts, this thread
	 * runs the lane after its own. */
	for (unsigned j = 1; j < nlanes; j++)
		started[j] = pthread_create(&threads[j], NULL, lane_run, &lanes[j]) == 0;
	lane_run(&lanes[0]);
	for (unsigned j = 1; j < nlanes; j++) {
		if (started[j])
			pthread_join(threads[j], NULL);
		else
			lane_run(&lanes[j]);
	}
	for (unsigned j = 0; j < nlanes; j++)
		if (lanes[j].err != CL_SUCCESS)
			return set_cl_error(lanes[j].err, lanes[j].what);
	return CLWARP_OK;
}

clwarp_status
staging_copy(clwarp_engine *e, cl_mem buffer, size_t offset, size_t bytes, void *host, bool write)
{
	unsigned slots[STAGING_MAX_CHUNKS], n = 0;
	cl_int err;

	/* Two chunks a thread: what is left serves a copy by another thread. */
	if (staging_applies(e, bytes, host))
		n = lease(e, e->staging.threads * 2 < e->staging.chunks ? e->staging.threads * 2
									 : e->staging.chunks, slots);
	/* Two chunks at least to overlap anything; else, as when every chunk
	 * is leased by other threads' copies, the driver's own path. */
	if (n == 1) {
		give_back(&e->staging, slots, n);
		n = 0;
	}
	if (n > 0) {
		clwarp_status status = staged(e, buffer, offset, bytes, host, write, slots, n);

		give_back(&e->staging, slots, n);
		return status;
	}
	err = write ? clEnqueueWriteBuffer(e->queue, buffer, CL_TRUE, offset, bytes, host, 0, NULL, NULL)
		    : clEnqueueReadBuffer(e->queue, buffer, CL_TRUE, offset, bytes, host, 0, NULL, NULL);
	return err == CL_SUCCESS ? CLWARP_OK
				 : set_cl_error(err, write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
}
