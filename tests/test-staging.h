/* What the files of test-staging share: the staging knobs, an engine with
 * one of them, the count of staged copies, the bytes' pattern. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_STAGING_H
#define CLWARP_TEST_STAGING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "testutil.h"

/* Not a multiple of any chunk of `knobs`. */
#define N_BYTES 300007u

/* test-staging.c */
extern const char *const knobs[];
extern atomic_uint staged_copies;
bool on_oclgrind(void);
clwarp_engine *staging_engine(const char *knob);
void fill(unsigned char *p, size_t n, unsigned seed);
size_t first_diff(const unsigned char *p, const unsigned char *q, size_t n);

/* test-staging-race.c's tests (staged copies among kernels and threads),
 * added to tc where main's test_wanted() says so; the loop tests take
 * each of the knob_count knobs in turn. */
void staging_add_race_tests(TCase *tc, bool (*wanted)(const char *name), int knob_count);

#endif
