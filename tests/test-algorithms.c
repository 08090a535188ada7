/* Device-wide algorithms against host references: every operation, type and size class. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "test-algorithms.h"

uint64_t rng_state = 88172645463325252ull;

bool
algorithms_test_wanted(const char *name)
{
	return test_wanted(name);
}

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("algorithms", &tc);

	read_test_levels();
	tcase_set_timeout(tc, quick ? 3000 : 300);
	/* Each test's place in this order picks its CLWARP_TEST_SHARD half
	 * (.ci/run's Oclgrind step). */
	add_error_and_event_tests(tc);
	add_reduce_scan_tests(tc);
	add_select_tests(tc);
	add_row_tests(tc);
	add_thread_tests(tc);
	/* Last, so that the tests before keep their CLWARP_TEST_SHARD halves. */
	add_narrow_select_tests(tc);
	add_small_tests(tc);
	add_repeat_tests(tc);
	return test_main(s);
}
