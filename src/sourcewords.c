/* The words of a program that decide what the engine adds to it: the
 * extension types it names (kernels/warp/types.cl) and <clwarp/cuda.h>'s
 * block votes (the scratch on khr and intel) and warp calls (the contract). */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "sourcewords.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

#define ELEMENT_NAME(name) #name,
static const char *const element_names[SOURCE_ELEMENT_COUNT] = { SOURCE_ELEMENT_TYPES(ELEMENT_NAME) };
#undef ELEMENT_NAME

/* <clwarp/cuda.h>'s names of the small types: int8_t is char, and so on. */
static uint64_t
cuda_type_bits(const char *name, size_t len)
{
	static const char *const names[] = { "int8_t", "uint8_t", "int16_t", "uint16_t" };

	for (unsigned i = 0; i < ARRAY_LENGTH(names); i++) {
		if (strlen(names[i]) == len && strncmp(name, names[i], len) == 0)
			return SOURCE_TYPE_BIT(i, 0);
	}
	return 0;
}

/* "char" and "short" also stand for their unsigned forms, which
 * "unsigned char" spells. <clwarp/cuda.h>'s names: make_T (make_float2,
 * ...) names T, longlongN and ulonglongN name longN and ulongN, int8_t
 * char and so on. */
uint64_t
source_type_bits(const char *name, size_t len)
{
	static const unsigned widths[] = SOURCE_VECTOR_WIDTHS;

	if (len > 5 && strncmp(name, "make_", 5) == 0)
		return source_type_bits(name + 5, len - 5);
	/* CUDA's longlong2 and ulonglong2: long2 and ulong2 (one "long" fewer). */
	if (len > 8 && len < 16 && (strncmp(name, "longlong", 8) == 0 || strncmp(name, "ulonglong", 9) == 0)) {
		size_t u = name[0] == 'u';
		char alias[16];

		memcpy(alias, name, u);
		memcpy(alias + u, name + u + 4, len - u - 4);
		return source_type_bits(alias, len - 4);
	}
	if (len > 5 && name[len - 2] == '_' && name[len - 1] == 't')
		return cuda_type_bits(name, len);
	for (unsigned e = 0; e < SOURCE_ELEMENT_COUNT; e++) {
		size_t n = strlen(element_names[e]);
		char digits[8];

		if (len < n || len > n + 2 || strncmp(name, element_names[e], n) != 0)
			continue;
		if (len == n)
			return SOURCE_TYPE_BIT(e, 0) | ((e == 0 || e == 2) ? SOURCE_TYPE_BIT(e + 1, 0) : 0);
		memcpy(digits, name + n, len - n);
		digits[len - n] = '\0';
		for (unsigned k = 0; k < ARRAY_LENGTH(widths); k++) {
			char want[8];
			snprintf(want, sizeof(want), "%u", widths[k]);
			if (strcmp(digits, want) == 0)
				return SOURCE_TYPE_BIT(e, k + 1);
		}
	}
	return 0;
}

/* Is the identifier [name, name + len) one of @p names? */
static bool
name_in(const char *const *names, size_t count, const char *name, size_t len)
{
	for (size_t i = 0; i < count; i++) {
		if (strlen(names[i]) == len && strncmp(name, names[i], len) == 0)
			return true;
	}
	return false;
}

bool
source_is_block_sync(const char *name, size_t len)
{
	static const char *const names[] = { "__syncthreads_count", "__syncthreads_and",
					     "__syncthreads_or" };

	return name_in(names, ARRAY_LENGTH(names), name, len);
}

bool
source_is_cuda_warp_call(const char *name, size_t len)
{
	static const char *const names[] = {
		"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__shfl",
		"__shfl_up", "__shfl_down", "__shfl_xor", "__ballot_sync", "__ballot", "__all_sync",
		"__any_sync", "__uni_sync", "__all", "__any", "__activemask", "__syncwarp",
		"__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
		"__reduce_or_sync", "__reduce_xor_sync", "__match_any_sync", "__match_all_sync",
	};

	if (len < 5 || name[0] != '_' || name[1] != '_')
		return false;
	return name_in(names, ARRAY_LENGTH(names), name, len);
}

bool
source_is_cast_type(const char *name, size_t len)
{
	static const char *const names[] = { "int", "float", "double", "char", "short", "long",
		"unsigned", "signed", "bool", "half", "uint", "uchar", "ushort", "ulong", "size_t" };

	return name_in(names, ARRAY_LENGTH(names), name, len);
}

uint64_t
source_words_in(const char *p, const char *end, bool *block_sync)
{
	uint64_t bits = 0;

	while (p < end) {
		if (is_ident_start(*p)) {
			const char *start = p;
			while (p < end && is_ident_char(*p))
				p++;
			bits |= source_type_bits(start, (size_t)(p - start));
			*block_sync |= source_is_block_sync(start, (size_t)(p - start));
		} else {
			p++;
		}
	}
	return bits;
}

bool
source_params_are_empty(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "void", 4) == 0 && !is_ident_char(p[4]))
		p += 4;
	while (isspace((unsigned char)*p))
		p++;
	return *p == '\0';
}
