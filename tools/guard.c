/* clwarp-run: guard zones after its buffers (guard.h). */
/* SPDX-License-Identifier: MIT */
#include "guard.h"

#include "report.h"

#include <stdio.h>
#include <stdlib.h>

size_t
guard_size(const struct argspec *a, size_t work_items, uint64_t max_alloc)
{
	size_t elem = elemtype_size(a->type);
	size_t guard = work_items > GUARD_MAX_BYTES / elem ? GUARD_MAX_BYTES : work_items * elem;

	if (guard < GUARD_MIN_BYTES)
		guard = GUARD_MIN_BYTES;
	if (a->bytes >= max_alloc)
		return 0;
	if (guard > max_alloc - a->bytes)
		guard = (size_t)(max_alloc - a->bytes);
	return guard;
}

/* The pattern's byte at offset @p j of a zone: a hash of j, so that a
 * kernel writing one value over and over (0, -1, ...) changes it. */
static unsigned char
pattern(size_t j)
{
	uint32_t h = (uint32_t)j * UINT32_C(2654435761) + UINT32_C(0x9E3779B9);

	h ^= h >> 15;
	h *= UINT32_C(0x2C1B3C6D);
	h ^= h >> 12;
	return (unsigned char)(h >> 24);
}

void
guard_fill(unsigned char *zone, size_t guard)
{
	for (size_t j = 0; j < guard; j++)
		zone[j] = pattern(j);
}

size_t
guard_reach(const unsigned char *zone, size_t guard)
{
	for (size_t j = guard; j > 0; j--) {
		if (zone[j - 1] != pattern(j - 1))
			return j;
	}
	return 0;
}

int
guard_buffer_new(clwarp_engine *engine, unsigned arg, const struct argspec *a, size_t guard,
		 void **host, cl_mem *mem)
{
	unsigned char *grown = realloc(*host, a->bytes + guard);
	clwarp_status status;
	char what[512];

	if (!grown) {
		report_error("argument %u ('%s'): cannot allocate %zu bytes of host memory", arg, a->text,
			     a->bytes + guard);
		return EXIT_RUNTIME;
	}
	*host = grown;
	guard_fill(grown + a->bytes, guard);
	status = clwarp_buffer_new(engine, CL_MEM_READ_WRITE, a->bytes + guard, grown, mem);
	if (status != CLWARP_OK) {
		snprintf(what, sizeof(what), "argument %u ('%s')", arg, a->text);
		return report_library_error(what, status);
	}
	return 0;
}

int
guard_read_back(clwarp_engine *engine, unsigned arg, const struct argspec *a, size_t guard,
		void *host, cl_mem mem)
{
	size_t from = a->out ? 0 : a->bytes, elem = elemtype_size(a->type), reach;
	clwarp_status status;

	status = clwarp_buffer_read(engine, mem, from, a->bytes + guard - from, (char *)host + from);
	if (status != CLWARP_OK)
		return report_library_error("cannot read a result", status);
	reach = guard_reach((const unsigned char *)host + a->bytes, guard);
	if (reach == 0)
		return 0;
	if (reach == guard)
		report_error("argument %u ('%s'): the kernel wrote at least %zu bytes past the end of the buffer (all of the guard zone after it; memory beyond may be corrupted)",
			     arg, a->text, reach);
	else
		report_error("argument %u ('%s'): the kernel wrote %zu byte%s past the end of the buffer (up to element [%zu] of %zu)",
			     arg, a->text, reach, reach == 1 ? "" : "s", (a->bytes + reach - 1) / elem,
			     a->count);
	return EXIT_OVERFLOW;
}
