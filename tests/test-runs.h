/* The files of test-runs: test-runs-calls.c's tests, each added to tc in
 * main()'s order (test-runs.c) where main's test_wanted() says so. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_RUNS_H
#define CLWARP_TEST_RUNS_H

#include <check.h>
#include <stdbool.h>

void runs_add_error_tests(TCase *tc, bool (*wanted)(const char *name));
void runs_add_event_tests(TCase *tc, bool (*wanted)(const char *name));

#endif
