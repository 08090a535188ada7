/* A memcpy with non-temporal stores. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "stream_copy.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/*
 * Why: a staged copy moves every byte through host memory three times at
 * once: the DMA reads (or writes) the pinned chunk while host threads copy
 * between it and the caller's memory. An ordinary store first reads its
 * cache line (a read for ownership), so a memcpy of 2 MiB costs three
 * transfers of host memory per byte, and the lines it leaves dirty in the
 * caches are what the DMA must then snoop. Streaming stores write whole
 * lines straight to memory: two transfers per byte. glibc's memcpy
 * streams only above a threshold of several MiB, above our pieces.
 * SSE2 is part of x86-64, so no dispatch is needed.
 */
void
stream_copy(void *dst, const void *src, size_t n)
{
#if defined(__x86_64__)
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t head = (size_t)(-(uintptr_t)d & 15u);

	if (n < 256) {
		memcpy(d, s, n);
		return;
	}
	memcpy(d, s, head);
	d += head;
	s += head;
	n -= head;
	for (; n >= 64; d += 64, s += 64, n -= 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 32));
		__m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + 48));

		_mm_stream_si128((__m128i *)(void *)d, a);
		_mm_stream_si128((__m128i *)(void *)(d + 16), b);
		_mm_stream_si128((__m128i *)(void *)(d + 32), c);
		_mm_stream_si128((__m128i *)(void *)(d + 48), e);
	}
	memcpy(d, s, n);
	/* Streaming stores are weakly ordered: make them visible before the
	 * DMA is enqueued (or the caller reads the memory). */
	_mm_sfence();
#else
	memcpy(dst, src, n);
#endif
}
