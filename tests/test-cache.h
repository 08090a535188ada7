/* What the files of test-cache share: the child process that builds and
 * runs a program, the fixture folder with its include, counts of entries. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_CACHE_H
#define CLWARP_TEST_CACHE_H

#include <check.h>
#include <stddef.h>

/* The child's exit status: CHILD_EXIT_BASE + the build source (test-cache.c, child_main). */
#define CHILD_EXIT_BASE 10

struct fixture {
	char *dir;
	char *cache;
	char *main_cl;
};

#define COMPILED (CHILD_EXIT_BASE + CLWARP_BUILD_COMPILED)
#define DISK_HIT (CHILD_EXIT_BASE + CLWARP_BUILD_DISK_HIT)

/* test-cache.c */
int child_main(char **argv);
void fixture_init(struct fixture *f, int factor);
void fixture_fini(struct fixture *f);
int run_child(const struct fixture *f, const char *options, int factor);
size_t count_entries(const char *cache, const char *suffix);

/* test-cache-disk.c: each adds its tests to tc, in main()'s order (test-cache.c). */
void cache_add_damage_tests(TCase *tc);
void cache_add_folder_tests(TCase *tc);

#endif
