/* The end of every Check test program: run its suite, exit by the result.
 * Apart from testutil.h so that the unit tests, which need no OpenCL,
 * take it alone. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_CHECK_MAIN_H
#define CLWARP_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

/* Runs every test of `s`; EXIT_SUCCESS when none failed. */
static inline int
test_main(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
