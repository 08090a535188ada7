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
#include "staging_trace.h"
#include "util.h"
#include "workers.h"

/*
 * Why: NVIDIA's OpenCL copies malloc'd memory at 6-8 GB/s (write) and
 * 14 GB/s (read) on H200s, pinned memory at 55 GB/s (docs/copies.md). A
 * copy through pinned chunks costs a memcpy on the host per byte, which
 * one thread does at about 10 GB/s: so each of up to `threads` host
 * threads (the engine's pool, src/workers.c) runs a pipeline of its own
 * through two or more chunks, memcpy into one chunk while the DMA of the
 * other runs (non-blocking enqueues, one event per chunk), taking the
 * copy's pieces in order from a shared cursor.
 */
/* Measured on an H200 (docs/design/copies.md): staged copies lose to
 * the driver's pageable path at 1-4 MiB and win from 16 MiB; 32 chunks of
 * 2 MiB and 12 threads reach 0.62-0.91 of pinned from 64 MiB, where 8 of
 * 4 MiB and 4 threads reached 0.40-0.53. */
#define DEFAULT_THRESHOLD ((size_t)16 << 20)
#define DEFAULT_CHUNK ((size_t)2 << 20)
#define DEFAULT_CHUNKS 32u
#define DEFAULT_THREADS 12u
/* Writes below this fill their chunks with non-temporal stores
 * (host_copy_for_device): staged over pinned, 16 MiB writes went from
 * 0.40 to 0.53 with them on an H200's host (8 rounds) and from 0.41 to
 * 0.54 on an H100's (6), 64 MiB ones tied (0.71 / 0.73, 0.70 / 0.70), and
 * 256 MiB ones lost (0.85 to 0.78, 0.84 to 0.73; docs/design/copies.md). */
#define DEFAULT_STREAM ((size_t)64 << 20)
/* Pieces smaller than this cost more in enqueues than they overlap. */
#define PIECE_MIN ((size_t)64 << 10)
/* Bytes per host thread at least: waking a thread costs tens of
 * microseconds, as long as 1 MiB takes at 20 GB/s; 4 MiB at a thread's
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
	s->stream = DEFAULT_STREAM;
	/* More memcpy threads than cores only take turns. */
	s->threads = cpus > 0 && (unsigned long)cpus < DEFAULT_THREADS ? (unsigned)cpus : DEFAULT_THREADS;
	workers_init(&s->workers);
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
		"expected key=value[,key=value...] with keys threshold, chunk, stream, chunks, threads, force";
	static const struct {
		const char *key;
		unsigned long long lo, hi;
	} keys[] = {
		{ "threshold", 0, SIZE_MAX },
		{ "chunk", 1, (unsigned long long)1 << 30 },
		{ "stream", 0, SIZE_MAX },
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
					 k < 3 ? " (K, M and G suffixes allowed)" : "");
		switch (k) {
		case 0: s->threshold = (size_t)v; break;
		case 1: s->chunk = (size_t)v; break;
		case 2: s->stream = (size_t)v; break;
		case 3: s->chunks = (unsigned)v; break;
		case 4: s->threads = (unsigned)v; break;
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
	 * add a second one (the same test as clwarp_host_buffer_new's fallback). */
	if (s->chunks == 0 || bytes == 0 || bytes < s->threshold || !(s->force || host_pins_memory(e)))
		return false;
	/* Memory from clwarp_host_buffer_new is pinned already. */
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
	workers_free(&s->workers);
	pthread_mutex_destroy(&s->lock);
}

/* ------------------------------------------------------------ the copy */

/* What the lanes of one copy share: pieces are handed out in order. */
struct copy {
	clwarp_engine *e;
	cl_mem buffer;
	size_t offset, bytes, chunk;
	unsigned char *host;
	bool write;
	pthread_mutex_t lock;     /* guards cursor and failed */
	size_t cursor;            /* bytes handed out */
	bool failed;              /* a lane failed: hand out no more */
	struct staging_trace trace;  /* at log level debug; pieces numbered by the cursor */
};

/* One host thread's pipeline through its own chunks, round robin. */
struct lane {
	struct copy *c;
	unsigned index;
	unsigned nchunks;
	void *chunk[STAGING_MAX_CHUNKS];
	cl_int err;               /* the first failure */
	const char *what;
};

/* The size of the piece at `at`: half the bytes before it, so the first
 * pieces are small and the DMA starts after a short memcpy instead of a
 * chunk's (the sizes grow by half each piece up to a chunk); for a read,
 * at most a quarter of what is left, so the memcpy after the last DMA is
 * short too. */
static size_t
piece_size(const struct copy *c, size_t at)
{
	size_t left = c->bytes - at, size = at / 2;

	if (!c->write && size > left / 4)
		size = left / 4;
	if (size < PIECE_MIN)
		size = PIECE_MIN;
	if (size > c->chunk)
		size = c->chunk;
	if (size > 4096)
		size &= ~(size_t)4095;
	return size < left ? size : left;
}

/* The next piece for lane `l`, numbered in `seq` for the trace. */
static bool
next_piece(struct lane *l, size_t *at, size_t *n, unsigned *seq)
{
	struct copy *c = l->c;
	struct staging_trace_piece *p;
	bool any;

	pthread_mutex_lock(&c->lock);
	any = c->cursor < c->bytes && !c->failed;
	if (any) {
		*at = c->cursor;
		*n = piece_size(c, c->cursor);
		*seq = c->trace.count++;
		c->cursor += *n;
	}
	pthread_mutex_unlock(&c->lock);
	if (any && (p = staging_trace_at(&c->trace, *seq))) {
		*p = (struct staging_trace_piece){ .at = *at, .bytes = *n, .lane = l->index,
						   .taken = staging_trace_now(&c->trace) };
	}
	return any;
}

static void
fail(struct lane *l, cl_int err, const char *what)
{
	if (l->err == CL_SUCCESS) {
		l->err = err;
		l->what = what;
	}
	pthread_mutex_lock(&l->c->lock);
	l->c->failed = true;
	pthread_mutex_unlock(&l->c->lock);
}

/* Wait for and release a chunk's event (piece `seq`'s), noting a failed command. */
static void
settle(struct lane *l, cl_event *ev, unsigned seq)
{
	struct staging_trace_piece *p = staging_trace_at(&l->c->trace, seq);
	cl_int run = CL_COMPLETE;

	if (!*ev)
		return;
	if (clWaitForEvents(1, ev) != CL_SUCCESS ||
	    clGetEventInfo(*ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(run), &run, NULL) != CL_SUCCESS ||
	    run < 0)
		fail(l, run < 0 ? run : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
		     l->c->write ? "writing a staged chunk" : "reading a staged chunk");
	if (p) {
		p->waited = staging_trace_now(&l->c->trace);
		staging_trace_dma(p, *ev);
	}
	clReleaseEvent(*ev);
	*ev = NULL;
}

static void
enqueue(struct lane *l, size_t at, size_t n, unsigned seq, void *chunk, cl_event *ev)
{
	struct copy *c = l->c;
	struct staging_trace_piece *p = staging_trace_at(&c->trace, seq);
	cl_command_queue q = c->e->queue;
	cl_int err;

	if (c->write) {
		if (c->bytes < c->e->staging.stream)
			host_copy_for_device(chunk, c->host + at, n);
		else
			memcpy(chunk, c->host + at, n);
		if (p)
			p->copied = staging_trace_now(&c->trace);
		err = clEnqueueWriteBuffer(q, c->buffer, CL_FALSE, c->offset + at, n, chunk, 0, NULL, ev);
	} else {
		err = clEnqueueReadBuffer(q, c->buffer, CL_FALSE, c->offset + at, n, chunk, 0, NULL, ev);
	}
	if (err != CL_SUCCESS) {
		*ev = NULL;
		fail(l, err, c->write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
		return;
	}
	/* Submit now: the DMA runs while this thread fills the next chunk. */
	clFlush(q);
	if (p)
		p->enqueued = staging_trace_now(&c->trace);
}

static void
lane_run(void *arg)
{
	struct lane *l = arg;
	struct copy *c = l->c;
	size_t at[STAGING_MAX_CHUNKS], n[STAGING_MAX_CHUNKS], next_at, next_n;
	unsigned seq[STAGING_MAX_CHUNKS] = { 0 }, next_seq;
	cl_event ev[STAGING_MAX_CHUNKS] = { 0 };
	bool more = true;

	/* A write fills chunk k once its last DMA is done; a read primes every
	 * chunk, then empties chunk k and refills it. Each chunk waits for its
	 * own event: right on an out-of-order queue too. A lane that meets
	 * another's failure stops taking pieces. */
	for (unsigned k = 0; !c->write && k < l->nchunks && (more = next_piece(l, &at[k], &n[k], &seq[k]));
	     k++)
		enqueue(l, at[k], n[k], seq[k], l->chunk[k], &ev[k]);
	for (unsigned k = 0; l->err == CL_SUCCESS; k = (k + 1) % l->nchunks) {
		if (c->write ? !more : !ev[k])
			break;
		settle(l, &ev[k], seq[k]);
		if (l->err != CL_SUCCESS)
			break;
		if (!c->write) {
			struct staging_trace_piece *p = staging_trace_at(&c->trace, seq[k]);

			memcpy(c->host + at[k], l->chunk[k], n[k]);
			if (p)
				p->copied = staging_trace_now(&c->trace);
		}
		if (more && (more = next_piece(l, &next_at, &next_n, &next_seq))) {
			at[k] = next_at;
			n[k] = next_n;
			seq[k] = next_seq;
			enqueue(l, at[k], n[k], seq[k], l->chunk[k], &ev[k]);
		}
	}
	/* Nothing may still use a chunk when it goes back. */
	for (unsigned k = 0; k < l->nchunks; k++)
		settle(l, &ev[k], seq[k]);
}

/* The staged copy itself, with `n` leased chunks in slots. */
static clwarp_status
staged(clwarp_engine *e, cl_mem buffer, size_t offset, size_t bytes, void *host, bool write,
       const unsigned *slots, unsigned n)
{
	struct staging *s = &e->staging;
	struct copy c = { .e = e, .buffer = buffer, .offset = offset, .bytes = bytes,
			  .chunk = s->chunk, .host = host, .write = write };
	struct lane lanes[64];
	size_t nfull = (bytes + s->chunk - 1) / s->chunk;
	unsigned nlanes;

	/* Two chunks and two chunks' worth a lane at least: a lane of one is serial. */
	nlanes = s->threads;
	if (nlanes > n / 2)
		nlanes = n / 2;
	if (nlanes > nfull / 2)
		nlanes = (unsigned)(nfull / 2);
	/* Tiny chunks (the tests') lower the bar: two chunks' worth a thread. */
	size_t lane_min = s->chunk < LANE_MIN / 2 ? 2 * s->chunk : LANE_MIN;

	if (nlanes > bytes / lane_min)
		nlanes = (unsigned)(bytes / lane_min);
	if (nlanes == 0)
		nlanes = 1;
	log_debug(&e->logger, "staged %s of %zu bytes: %u chunks, %u threads",
		  write ? "write" : "read", bytes, n, nlanes);
	pthread_mutex_init(&c.lock, NULL);
	staging_trace_begin(&c.trace, &e->logger);
	for (unsigned j = 0; j < nlanes; j++) {
		lanes[j] = (struct lane){ .c = &c, .index = j, .err = CL_SUCCESS };
		for (unsigned k = j; k < n; k += nlanes)
			lanes[j].chunk[lanes[j].nchunks++] = s->slot[slots[k]].host;
	}
	workers_run(&s->workers, lane_run, lanes, sizeof(lanes[0]), nlanes);
	staging_trace_end(&c.trace, &e->logger, write, bytes, nlanes);
	pthread_mutex_destroy(&c.lock);
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
