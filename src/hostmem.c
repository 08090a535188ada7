/* Host memory the device copies at full speed: clwarp_host_buffer_new and friends. */
/* SPDX-License-Identifier: MIT */
/* MAP_ANONYMOUS: POSIX only since 2024; glibc shows it with _DEFAULT_SOURCE. */
#define _DEFAULT_SOURCE
#include "config.h"
#include "hostmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine.h"
#include "error.h"

/*
 * Pinned host memory where the driver gives it for CL_MEM_ALLOC_HOST_PTR:
 * discrete GPUs other than PoCL's. A device that says it is a CPU as well
 * is simulated on the host (Oclgrind says GPU, CPU and accelerator, and
 * runs commands in whichever host thread flushes, so the staging threads
 * of src/staging.c would crash it). On two H200s, NVIDIA's OpenCL copied
 * 1 GiB between a GPU and such memory at 55 GB/s each way, and at 14
 * (read) and 7.6 GB/s (write) with malloc'd memory; memory mapped in one
 * GPU's context served the other at the same speed
 * (docs/design/multidevice.md, peer-copy-bench). PoCL's CPU devices
 * gain nothing, and a PoCL-R buffer's map and unmap would cross the
 * network.
 */
bool
host_pins_memory(const clwarp_engine *e)
{
	return (e->info.type & CL_DEVICE_TYPE_GPU) && !(e->info.type & CL_DEVICE_TYPE_CPU) &&
	       strncmp(e->info.platform_name, "Portable Computing Language", 27) != 0;
}

/*
 * Why: on an H100 machine, a DMA of a 1-4 MiB pinned chunk just filled by
 * memcpy ran at 18-36 GB/s, and at 35-45 GB/s when the chunk was filled
 * with non-temporal stores, which leave no copy of its lines in the CPU's
 * caches for the DMA to fetch from there; 12 threads also filled 64 MiB at
 * 65-67 GB/s that way against 47-53 with memcpy (docs/design/copies.md). Short copies gain nothing and take memcpy.
 */
void
host_copy_for_device(void *dst, const void *src, size_t n)
{
#if defined(__SSE2__)
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t head = (size_t)(-(uintptr_t)d & 15);

	if (n < 4096) {
		memcpy(dst, src, n);
		return;
	}
	memcpy(d, s, head);
	d += head, s += head, n -= head;
	for (; n >= 64; d += 64, s += 64, n -= 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
		__m128i e = _mm_loadu_si128((const __m128i *)(s + 48));

		_mm_stream_si128((__m128i *)d, a);
		_mm_stream_si128((__m128i *)(d + 16), b);
		_mm_stream_si128((__m128i *)(d + 32), c);
		_mm_stream_si128((__m128i *)(d + 48), e);
	}
	memcpy(d, s, n);
	/* Non-temporal stores are weakly ordered: make them visible before
	 * the enqueue that lets the device read them. */
	_mm_sfence();
#else
	memcpy(dst, src, n);
#endif
}

cl_int
host_pin(clwarp_engine *e, size_t bytes, cl_mem *mem, void **host)
{
	cl_int err;

	*host = NULL;
	*mem = clCreateBuffer(e->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
	if (err != CL_SUCCESS) {
		*mem = NULL;
		return err;
	}
	*host = clEnqueueMapBuffer(e->queue, *mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
				   NULL, NULL, &err);
	if (err != CL_SUCCESS || !*host) {
		clReleaseMemObject(*mem);
		*mem = NULL;
		*host = NULL;
		return err != CL_SUCCESS ? err : CL_MAP_FAILURE;
	}
	return CL_SUCCESS;
}

void
host_unpin(clwarp_engine *e, cl_mem mem, void *host)
{
	clEnqueueUnmapMemObject(e->queue, mem, host, 0, NULL, NULL);
	clReleaseMemObject(mem);
}

static void
block_release(clwarp_engine *e, struct host_block *b)
{
	if (b->mem)
		host_unpin(e, b->mem, b->host);
	else
		munmap(b->host, b->bytes);
	free(b);
}

void
host_free_all(clwarp_engine *e)
{
	/* Copies still queued may read or write these blocks; an engine that
	 * holds none does not wait (a lost PoCL-R server never finishes). */
	if (e->host_blocks && e->queue)
		clFinish(e->queue);
	while (e->host_blocks) {
		struct host_block *next = e->host_blocks->next;

		block_release(e, e->host_blocks);
		e->host_blocks = next;
	}
	e->host_bytes = 0;
}

/* What one engine may hold at once: half the host's memory, so that a
 * runaway loop fails with a message before the system starts to swap
 * (pinned pages cannot be swapped out). */
static size_t
host_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0 || (unsigned long)pages > SIZE_MAX / (unsigned long)page)
		return SIZE_MAX;
	return (size_t)pages * (size_t)page / 2;
}

CLWARP_EXPORT clwarp_status
clwarp_host_buffer_new(clwarp_engine *e, size_t bytes, void **out)
{
	struct host_block *b;
	size_t limit, held;
	cl_int err;

	clear_error();
	if (!out)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL output pointer for host memory");
	*out = NULL;
	if (!e)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine for host memory");
	if (bytes == 0)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "host memory of 0 bytes");
	if (bytes > e->info.max_alloc_size)
		return set_error(CLWARP_ERROR_TOO_LARGE,
				 "host memory of %zu bytes exceeds the device's largest allocation (%llu bytes)",
				 bytes, (unsigned long long)e->info.max_alloc_size);
	b = calloc(1, sizeof(*b));
	if (!b)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	b->bytes = bytes;

	limit = host_limit();
	pthread_mutex_lock(&e->host_lock);
	held = e->host_bytes;
	if (bytes <= limit - held)
		e->host_bytes += bytes;
	pthread_mutex_unlock(&e->host_lock);
	if (bytes > limit - held) {
		free(b);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY,
				 "host memory of %zu bytes on top of the %zu bytes this engine holds would pass its limit of %zu bytes (half the host's memory)",
				 bytes, held, limit);
	}

	if (host_pins_memory(e)) {
		err = host_pin(e, bytes, &b->mem, &b->host);
		if (err != CL_SUCCESS)
			log_info(&e->logger, "pinning %zu bytes of host memory failed (%s); using ordinary memory",
				 bytes, cl_error_name(err));
	}
	/* Ordinary memory: on PoCL it is what the device reads anyway, and
	 * where pinning failed it still works, at the pageable speed. Pages
	 * of their own, from mmap rather than malloc: aligned for every
	 * driver's direct copies, given back to the system when freed, and
	 * never touched before the caller does (glibc's MALLOC_PERTURB_,
	 * which meson test sets, would write every byte of a large block). */
	if (!b->host) {
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			pthread_mutex_lock(&e->host_lock);
			e->host_bytes -= bytes;
			pthread_mutex_unlock(&e->host_lock);
			free(b);
			return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of host memory for %zu bytes", bytes);
		}
		b->host = p;
	}

	pthread_mutex_lock(&e->host_lock);
	b->next = e->host_blocks;
	e->host_blocks = b;
	pthread_mutex_unlock(&e->host_lock);
	*out = b->host;
	return CLWARP_OK;
}

/* The block that @p ptr points into, and where its link is; the caller
 * holds host_lock. */
static struct host_block **
find_block(clwarp_engine *e, const void *ptr)
{
	uintptr_t p = (uintptr_t)ptr;

	for (struct host_block **link = &e->host_blocks; *link; link = &(*link)->next) {
		uintptr_t start = (uintptr_t)(*link)->host;

		if (p >= start && p - start < (*link)->bytes)
			return link;
	}
	return NULL;
}

bool
host_in_block(clwarp_engine *e, const void *ptr)
{
	bool found;

	pthread_mutex_lock(&e->host_lock);
	found = e->host_blocks && find_block(e, ptr);
	pthread_mutex_unlock(&e->host_lock);
	return found;
}

CLWARP_EXPORT clwarp_status
clwarp_host_buffer_free(clwarp_engine *e, void *ptr)
{
	struct host_block **link, *b = NULL;
	size_t into = 0, bytes = 0;

	clear_error();
	if (!e)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine for host memory");
	if (!ptr)
		return CLWARP_OK;
	pthread_mutex_lock(&e->host_lock);
	link = find_block(e, ptr);
	if (link) {
		into = (size_t)((uintptr_t)ptr - (uintptr_t)(*link)->host);
		bytes = (*link)->bytes;
		if (into == 0) {
			b = *link;
			*link = b->next;
			e->host_bytes -= b->bytes;
		}
	}
	pthread_mutex_unlock(&e->host_lock);
	if (!link)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "freeing host memory at %p that clwarp_host_buffer_new did not give this engine (or that is freed already)",
				 ptr);
	if (!b)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "freeing host memory at %p, %zu bytes into a block of %zu bytes: pass the pointer clwarp_host_buffer_new gave",
				 ptr, into, bytes);
	block_release(e, b);
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_host_buffer_pinned(clwarp_engine *e, const void *ptr, int *pinned)
{
	struct host_block **link;

	clear_error();
	if (!e || !ptr || !pinned)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine, pointer or output");
	*pinned = 0;
	pthread_mutex_lock(&e->host_lock);
	link = find_block(e, ptr);
	if (link)
		*pinned = (*link)->mem != NULL;
	pthread_mutex_unlock(&e->host_lock);
	if (!link)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "host memory at %p is not from clwarp_host_buffer_new on this engine", ptr);
	return CLWARP_OK;
}
