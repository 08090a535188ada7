/* Tests for the on-disk program cache's size bound: least recently used
 * entries go first, stale temp files too, foreign files never; an entry
 * too large for the bound is not written. */
/* SPDX-License-Identifier: MIT */
#include "diskcache-testutil.h"
#include "diskcache_evict.h"

START_TEST(test_eviction)
{
	enum { PAYLOAD = 100, ENTRY = DISKCACHE_HEADER_SIZE + PAYLOAD };
	struct diskcache cache;
	uint8_t keys[6][32], payload[PAYLOAD];
	char paths[6][4096], stale[4096], young[4096], foreign[4096];
	time_t now = time(NULL);
	void *got;
	size_t size;

	setup();
	/* Room for three entries, not four. */
	open_cache(&cache, 3 * ENTRY + ENTRY / 2);
	for (int i = 0; i < 6; i++) {
		make_key(100 + i, keys[i]);
		entry_path(paths[i], sizeof(paths[i]), cache_path, keys[i], "bin");
	}
	fill(payload, sizeof(payload), 8);

	/* Distinct, explicit ages: the file system's clock granularity does not matter. */
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(diskcache_store(&cache, keys[i], "bin", payload, PAYLOAD), CLWARP_OK);
		set_mtime(paths[i], now - 1000 + 100 * i);
	}
	ck_assert(exists(paths[0]) && exists(paths[1]) && exists(paths[2]));

	/* Leftovers of a crashed writer, one stale, one maybe still in use, and
	 * a file that is not ours. */
	snprintf(stale, sizeof(stale), "%s/.tmp-stale1", cache_path);
	snprintf(young, sizeof(young), "%s/.tmp-young1", cache_path);
	snprintf(foreign, sizeof(foreign), "%s/README", cache_path);
	write_file(stale, payload, PAYLOAD);
	write_file(young, payload, PAYLOAD);
	write_file(foreign, payload, PAYLOAD);
	set_mtime(stale, now - 2 * DISKCACHE_STALE_TMP_SECONDS);
	set_mtime(young, now - 60);
	set_mtime(foreign, now - 100000);

	/* A fourth entry pushes out the oldest. */
	ck_assert_int_eq(diskcache_store(&cache, keys[3], "bin", payload, PAYLOAD), CLWARP_OK);
	ck_assert(!exists(paths[0]));
	ck_assert(exists(paths[1]) && exists(paths[2]) && exists(paths[3]));
	ck_assert(!exists(stale));
	ck_assert(exists(young));
	ck_assert(exists(foreign));

	/* A hit on the now-oldest entry makes it the newest... */
	ck_assert_int_eq(diskcache_load(&cache, keys[1], "bin", &got, &size), 1);
	free(got);
	ck_assert_int_ge(mtime_of(paths[1]), now);
	/* ...so the next store evicts the next-oldest instead. */
	ck_assert_int_eq(diskcache_store(&cache, keys[4], "bin", payload, PAYLOAD), CLWARP_OK);
	ck_assert(exists(paths[1]));
	ck_assert(!exists(paths[2]));
	ck_assert(exists(paths[3]) && exists(paths[4]));

	/* The entry just written survives even when it is the oldest by mtime
	 * (a clock step back, or a coarse clock). */
	set_mtime(paths[1], now + 1000);
	set_mtime(paths[3], now + 1000);
	set_mtime(paths[4], now + 1000);
	ck_assert_int_eq(diskcache_store(&cache, keys[5], "bin", payload, PAYLOAD), CLWARP_OK);
	ck_assert(exists(paths[5]));
	ck_assert_int_eq(exists(paths[1]) + exists(paths[3]) + exists(paths[4]), 2);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_too_large)
{
	struct diskcache cache;
	uint8_t key[32], other[32], payload[600];
	char path[4096], other_path[4096];

	setup();
	open_cache(&cache, 500);
	make_key(9, key);
	make_key(10, other);
	fill(payload, sizeof(payload), 9);
	entry_path(path, sizeof(path), cache_path, key, "bin");
	entry_path(other_path, sizeof(other_path), cache_path, other, "bin");

	ck_assert_int_eq(diskcache_store(&cache, other, "bin", payload, 100), CLWARP_OK);
	/* 88 + 413 = 501 bytes: over the bound alone, so not written at all,
	 * and nothing else is evicted for it. */
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, 413), CLWARP_ERROR_TOO_LARGE);
	ck_assert(!exists(path));
	ck_assert(exists(other_path));
	/* 88 + 412 = 500 fits exactly; the older entry goes. */
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, 412), CLWARP_OK);
	ck_assert_int_eq(file_size(path), 500);
	ck_assert(!exists(other_path));
	expect_hit(&cache, key, "bin", payload, 412);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

static void
add_tests(TCase *tc)
{
	tcase_add_test(tc, test_eviction);
	tcase_add_test(tc, test_too_large);
}

int
main(void)
{
	return diskcache_test_main("diskcache-evict", add_tests);
}
