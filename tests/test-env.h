/* The test knobs that the meson test setups and CI set: the sizes
 * (CLWARP_TEST_QUICK) and CLWARP_TEST_REQUIRE_ALL. Plain C, no Check:
 * the torture driver includes it too. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_ENV_H
#define CLWARP_TEST_ENV_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * The size level as text: unset, empty or "0" for the full sizes, "1" for
 * the reduced ones (every kernel path, multi-tile sizes included), "2" for
 * Oclgrind's (test-algorithms.h). CLWARP_TEST_QUICK, set by hand or by a
 * CI step, wins; else CLWARP_TEST_QUICK_DEFAULT, which the meson test
 * setups set (tests/meson.build): 1 in "quick", the default of
 * `meson test`, 0 in "full" (`meson test --setup full`). A setup's
 * environment replaces the caller's, so the setups set only the default
 * and CLWARP_TEST_QUICK=2 still reaches Oclgrind's runs.
 */
static inline const char *
test_quick_env(void)
{
	const char *q = getenv("CLWARP_TEST_QUICK");

	return q && *q ? q : getenv("CLWARP_TEST_QUICK_DEFAULT");
}

/* CLWARP_TEST_REQUIRE_ALL set (CI, which can give every test what it
 * needs): a test that would skip, or skip a part, fails instead. */
static inline bool
test_require_all(void)
{
	const char *r = getenv("CLWARP_TEST_REQUIRE_ALL");

	return r && *r && strcmp(r, "0") != 0;
}

/* Reduced sizes: a level other than unset, empty and "0". */
static inline bool
test_quick(void)
{
	const char *q = test_quick_env();

	return q && *q && strcmp(q, "0") != 0;
}

#endif
