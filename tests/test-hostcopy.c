/* Tests for host_copy_for_device (src/hostmem.c): every byte of copies at
 * every alignment of source and destination modulo 64, sizes around the
 * short-copy cut (4096) and the 64-byte blocks, with guard bytes each side,
 * against the pattern copied byte by byte. */
/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check-main.h"
#include "hostmem.h"

#define GUARD 80
#define MAX_BYTES (70000 + 64)

static unsigned char
pattern(size_t i)
{
	uint32_t x = (uint32_t)i * 2654435761u;

	return (unsigned char)(x >> 11 ^ x >> 24);
}

START_TEST(test_alignments_and_sizes)
{
	static const size_t sizes[] = { 0, 1, 15, 63, 64, 4095, 4096, 4097, 4159, 4160, 65536, 69999 };
	unsigned char *src = malloc(MAX_BYTES + 2 * GUARD), *dst = malloc(MAX_BYTES + 2 * GUARD);

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	for (size_t i = 0; i < MAX_BYTES + 2 * GUARD; i++)
		src[i] = pattern(i);
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++)
		for (size_t sa = 0; sa < 64; sa += 7)
			for (size_t da = 0; da < 64; da++) {
				size_t n = sizes[z], at = GUARD + da, end = at + n + GUARD, bad = end;

				memset(dst, 0xa5, end);
				host_copy_for_device(dst + at, src + GUARD + sa, n);
				for (size_t i = 0; i < end && bad == end; i++)
					if (dst[i] != (i >= at && i < at + n ? pattern(i - at + GUARD + sa) : 0xa5))
						bad = i;
				ck_assert_msg(bad == end, "%zu bytes, source +%zu, destination +%zu: byte %zd is %u",
					      n, sa, da, (ptrdiff_t)bad - (ptrdiff_t)at, bad < end ? dst[bad] : 0);
			}
	free(src);
	free(dst);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hostcopy");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_alignments_and_sizes);
	suite_add_tcase(s, tc);
	return test_main(s);
}
