/* What the files of test-sort share: the tile size and one sort checked
 * against the reference. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_SORT_H
#define CLWARP_TEST_SORT_H

#include <stdbool.h>
#include <stdint.h>

#include "algo-testutil.h"
#include "sort-reference.h"

/* Keys per tile with 4-byte keys and values: 256 x sort_items (test-sort.c's main). */
extern size_t tile;

/* Sort n keys of pattern p on the device and compare them with the reference (test-sort.c). */
void check_sort(clwarp_engine *e, clwarp_type t, int value_type, size_t n, enum pattern p,
		bool descending, unsigned bits, uint64_t seed);

/* test-sort-tunings.c's tests (the local backend's widths, both kinds of
 * pass, wide work-groups, a device's own tunings), added to tc where
 * main's test_wanted() says so. */
void sort_add_tuning_tests(TCase *tc, bool (*wanted)(const char *name));

#endif
