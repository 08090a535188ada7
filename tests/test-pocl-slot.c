/* Tests for the PoCL 4/5 engine slots (src/pocl_slot.h): which platforms take
 * one, that live engines never share one, and that a freed one is reused. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "check-main.h"
#include "pocl_slot.h"

static clwarp_device_info
platform(const char *version)
{
	clwarp_device_info info = { 0 };

	info.platform_version = version;
	return info;
}

START_TEST(test_which_platforms)
{
	clwarp_device_info none = platform(NULL), nv = platform("OpenCL 3.0 CUDA 13.0.88"),
			   pocl3 = platform("OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, RELOC, LLVM 15.0.6"),
			   pocl6 = platform("OpenCL 3.0 PoCL 6.0+debian  Linux, None+Asserts, RELOC, SPIR-V, LLVM 18"),
			   intel = platform("OpenCL 3.0 LINUX");

	ck_assert_uint_eq(pocl_slot_take(&none), 0);
	ck_assert_uint_eq(pocl_slot_take(&nv), 0);
	ck_assert_uint_eq(pocl_slot_take(&pocl3), 0);
	ck_assert_uint_eq(pocl_slot_take(&pocl6), 0);
	ck_assert_uint_eq(pocl_slot_take(&intel), 0);
	ck_assert_uint_eq(pocl_slot_take(NULL), 0);
}
END_TEST

START_TEST(test_slots_apart)
{
	clwarp_device_info pocl5 = platform("OpenCL 3.0 PoCL 5.0+debian  Linux, None+Asserts, RELOC, LLVM 17"),
			   pocl4 = platform("OpenCL 3.0 PoCL 4.0  Linux, Release, RELOC, LLVM 16");
	unsigned slots[70];
	uint64_t seen = 0;

	/* The first engine gets 1, the next ones the lowest free slot. */
	for (unsigned i = 0; i < 63; i++) {
		slots[i] = pocl_slot_take(i % 2 ? &pocl4 : &pocl5);
		ck_assert_uint_eq(slots[i], i + 1);
		ck_assert(!(seen & ((uint64_t)1 << slots[i])));
		seen |= (uint64_t)1 << slots[i];
	}
	/* All 63 taken: no slot (the documented limit). */
	ck_assert_uint_eq(pocl_slot_take(&pocl5), 0);
	pocl_slot_give(0);
	pocl_slot_give(slots[9]);
	pocl_slot_give(slots[4]);
	ck_assert_uint_eq(pocl_slot_take(&pocl5), 5);
	ck_assert_uint_eq(pocl_slot_take(&pocl5), 10);
	ck_assert_uint_eq(pocl_slot_take(&pocl5), 0);
	for (unsigned i = 0; i < 63; i++)
		pocl_slot_give(slots[i]);
	ck_assert_uint_eq(pocl_slot_take(&pocl5), 1);
	pocl_slot_give(1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("pocl-slot");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_which_platforms);
	tcase_add_test(tc, test_slots_apart);
	suite_add_tcase(s, tc);
	return test_main(s);
}
