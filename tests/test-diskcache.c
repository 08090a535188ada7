/* Tests for the on-disk program cache's entries: the file format, loads that
 * reject damaged files, stores, removal, concurrent writers (the size bound:
 * test-diskcache-evict.c; the folder: test-diskcache-folder.c). */
/* SPDX-License-Identifier: MIT */
#include <sys/wait.h>

#include "diskcache-testutil.h"

START_TEST(test_roundtrip)
{
	struct diskcache cache;
	uint8_t key[32], payload[1000], other[300];
	char path[4096];
	uint8_t *raw;
	size_t n;
	struct stat st;

	setup();
	open_cache(&cache, 0);
	ck_assert_uint_eq(cache.max_bytes, CLWARP_CACHE_DEFAULT_MAX_BYTES);
	ck_assert_int_eq(stat(cache_path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0700);

	make_key(1, key);
	fill(payload, sizeof(payload), 1);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, sizeof(payload)), CLWARP_OK);
	expect_hit(&cache, key, "bin", payload, sizeof(payload));

	/* The documented layout, byte for byte. */
	entry_path(path, sizeof(path), cache_path, key, "bin");
	raw = read_file(path, &n);
	ck_assert_uint_eq(n, DISKCACHE_HEADER_SIZE + sizeof(payload));
	ck_assert_mem_eq(raw, "CLWARPC\x01", 8);
	ck_assert_mem_eq(raw + 8, "\x01\0\0\0\0\0\0\0", 8);
	ck_assert_mem_eq(raw + 16, key, 32);
	ck_assert_mem_eq(raw + 48, "\xe8\x03\0\0\0\0\0\0", 8);
	{
		uint8_t digest[32];

		sha256_buffer(payload, sizeof(payload), digest);
		ck_assert_mem_eq(raw + 56, digest, 32);
	}
	ck_assert_mem_eq(raw + 88, payload, sizeof(payload));
	free(raw);

	/* Kinds are separate entries; an empty payload is a valid one. */
	expect_miss(&cache, key, "probe");
	ck_assert_int_eq(diskcache_store(&cache, key, "probe", NULL, 0), CLWARP_OK);
	expect_hit(&cache, key, "probe", NULL, 0);
	expect_hit(&cache, key, "bin", payload, sizeof(payload));

	/* A second store replaces the entry. */
	fill(other, sizeof(other), 2);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", other, sizeof(other)), CLWARP_OK);
	expect_hit(&cache, key, "bin", other, sizeof(other));
	ck_assert_int_eq(warnings, 0);

	diskcache_close(&cache);
	ck_assert_ptr_null(cache.dir);
	diskcache_close(&cache);
	diskcache_close(NULL);
	teardown();
}
END_TEST

START_TEST(test_miss_and_bad_kind)
{
	struct diskcache cache;
	uint8_t key[32];

	setup();
	open_cache(&cache, 0);
	make_key(2, key);
	expect_miss(&cache, key, "bin");

	ck_assert_int_eq(diskcache_store(&cache, key, "../x", "a", 1), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(diskcache_store(&cache, key, "", "a", 1), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(diskcache_store(&cache, key, NULL, "a", 1), CLWARP_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(diskcache_store(&cache, key, "a_very_long_kind", "a", 1),
	                 CLWARP_ERROR_INVALID_ARGUMENT);
	expect_miss(&cache, key, "BIN");
	expect_miss(&cache, key, NULL);
	ck_assert(diskcache_kind_valid("bin"));
	ck_assert(diskcache_kind_valid("probe_v2"));
	ck_assert(!diskcache_kind_valid("tmp-"));
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_truncated)
{
	static const off_t cuts[] = { 0, 1, 7, 8, 15, 16, 47, 48, 55, 56, 87, 88, 89, 300, 587 };
	struct diskcache cache;
	uint8_t key[32], payload[500];
	char path[4096];

	setup();
	open_cache(&cache, 0);
	make_key(3, key);
	fill(payload, sizeof(payload), 3);
	entry_path(path, sizeof(path), cache_path, key, "bin");
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, sizeof(payload)),
		                 CLWARP_OK);
		ck_assert_int_eq(truncate(path, cuts[i]), 0);
		expect_miss(&cache, key, "bin");
		ck_assert_msg(!exists(path), "entry cut at %ld was kept", (long)cuts[i]);
	}

	/* Bytes after the payload are damage too. */
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", payload, sizeof(payload)), CLWARP_OK);
	ck_assert_int_eq(truncate(path, DISKCACHE_HEADER_SIZE + sizeof(payload) + 1), 0);
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));
	ck_assert_ptr_nonnull(strstr(last_drop, "trailing"));
	ck_assert_int_eq(drops, sizeof(cuts) / sizeof(cuts[0]) + 1);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

/* Stores an entry, xors one byte of its file, and expects a deleting miss. */
static void
corrupt_and_check(struct diskcache *cache, const uint8_t key[32], size_t offset, uint8_t mask)
{
	uint8_t payload[256];
	char path[4096];
	uint8_t *raw;
	size_t n;

	fill(payload, sizeof(payload), 4);
	ck_assert_int_eq(diskcache_store(cache, key, "bin", payload, sizeof(payload)), CLWARP_OK);
	entry_path(path, sizeof(path), cache->dir, key, "bin");
	raw = read_file(path, &n);
	ck_assert_uint_lt(offset, n);
	raw[offset] ^= mask;
	write_file(path, raw, n);
	free(raw);
	expect_miss(cache, key, "bin");
	ck_assert_msg(!exists(path), "entry damaged at byte %zu was kept", offset);
}

START_TEST(test_flipped_bytes)
{
	struct diskcache cache;
	uint8_t key[32];

	setup();
	open_cache(&cache, 0);
	make_key(4, key);
	corrupt_and_check(&cache, key, DISKCACHE_HEADER_SIZE + 123, 0x01);  /* payload */
	ck_assert_ptr_nonnull(strstr(last_drop, "checksum"));
	corrupt_and_check(&cache, key, DISKCACHE_HEADER_SIZE, 0x80);        /* first payload byte */
	corrupt_and_check(&cache, key, DISKCACHE_HEADER_SIZE + 255, 0xff);  /* last payload byte */
	corrupt_and_check(&cache, key, 60, 0x10);                           /* checksum */
	corrupt_and_check(&cache, key, 0, 0x20);                            /* magic */
	corrupt_and_check(&cache, key, 7, 0x01);                            /* magic's \x01 */
	corrupt_and_check(&cache, key, 8, 0x03);                            /* version 1 -> 2 */
	corrupt_and_check(&cache, key, 13, 0x01);                           /* reserved */
	corrupt_and_check(&cache, key, 20, 0x01);                           /* key */
	corrupt_and_check(&cache, key, 48, 0x01);                           /* size, off by one */
	corrupt_and_check(&cache, key, 55, 0x80);                           /* size, huge */
	ck_assert_int_eq(drops, 11);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_wrong_key)
{
	struct diskcache cache;
	uint8_t a[32], b[32], pa[100], pb[100];
	char path_a[4096], path_b[4096];
	uint8_t *raw;
	size_t n;

	setup();
	open_cache(&cache, 0);
	make_key(5, a);
	make_key(6, b);
	fill(pa, sizeof(pa), 5);
	fill(pb, sizeof(pb), 6);
	ck_assert_int_eq(diskcache_store(&cache, a, "bin", pa, sizeof(pa)), CLWARP_OK);
	ck_assert_int_eq(diskcache_store(&cache, b, "bin", pb, sizeof(pb)), CLWARP_OK);
	entry_path(path_a, sizeof(path_a), cache_path, a, "bin");
	entry_path(path_b, sizeof(path_b), cache_path, b, "bin");

	/* A whole, self-consistent file under another key's name. */
	raw = read_file(path_a, &n);
	write_file(path_b, raw, n);
	free(raw);
	expect_miss(&cache, b, "bin");
	ck_assert(!exists(path_b));
	expect_hit(&cache, a, "bin", pa, sizeof(pa));

	/* Same key, but filed under another kind: still that key, still valid. */
	raw = read_file(path_a, &n);
	entry_path(path_b, sizeof(path_b), cache_path, a, "probe");
	write_file(path_b, raw, n);
	free(raw);
	expect_hit(&cache, a, "probe", pa, sizeof(pa));
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_bad_files)
{
	struct diskcache cache;
	uint8_t key[32], header[DISKCACHE_HEADER_SIZE], junk[5000];
	char path[4096];

	setup();
	open_cache(&cache, 0);
	make_key(7, key);
	entry_path(path, sizeof(path), cache_path, key, "bin");

	/* Random bytes. */
	fill(junk, sizeof(junk), 7);
	write_file(path, junk, sizeof(junk));
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));

	/* A header claiming 2^64-1 bytes must not make us allocate them. */
	memset(header, 0, sizeof(header));
	memcpy(header, "CLWARPC\x01\x01\0\0\0\0\0\0\0", 16);
	memcpy(header + 16, key, 32);
	memset(header + 48, 0xff, 8);
	write_file(path, header, sizeof(header));
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));

	/* Just over the 1 GiB limit. */
	memcpy(header + 48, "\x01\0\0\x40\0\0\0\0", 8);
	write_file(path, header, sizeof(header));
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));

	/* Empty file. */
	write_file(path, "", 0);
	expect_miss(&cache, key, "bin");
	ck_assert(!exists(path));

	/* A folder where an entry should be: a miss, and nothing breaks. */
	ck_assert_int_eq(mkdir(path, 0700), 0);
	expect_miss(&cache, key, "bin");
	ck_assert_int_eq(rmdir(path), 0);

	/* A named pipe: a miss at once (the open used to wait for a writer
	 * forever: hangs in the cache torture test), and a store replaces it. */
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	expect_miss(&cache, key, "bin");
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", junk, 10), CLWARP_OK);
	expect_hit(&cache, key, "bin", junk, 10);
	diskcache_close(&cache);
	teardown();
}
END_TEST

START_TEST(test_remove)
{
	struct diskcache cache;
	uint8_t key[32];

	setup();
	open_cache(&cache, 0);
	make_key(11, key);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_OK);
	ck_assert_int_eq(diskcache_store(&cache, key, "probe", "x", 1), CLWARP_OK);
	diskcache_remove(&cache, key, "bin");
	expect_miss(&cache, key, "bin");
	expect_hit(&cache, key, "probe", "x", 1);
	diskcache_remove(&cache, key, "bin");
	diskcache_remove(&cache, key, "../bin");
	diskcache_remove(NULL, key, "bin");
	diskcache_close(&cache);
	diskcache_remove(&cache, key, "probe");
	teardown();
}
END_TEST

enum { WRITERS = 8, ROUNDS = 50, SHARED_SIZE = 20000 };

static int
writer(unsigned id)
{
	struct diskcache cache;
	uint8_t shared_key[32], own_key[32], shared[SHARED_SIZE], own[777];

	if (diskcache_open(&cache, cache_path, NULL, 0, 0, NULL) != CLWARP_OK || !cache.dir)
		return 1;
	make_key(1000, shared_key);
	make_key(2000 + (int)id, own_key);
	fill(shared, sizeof(shared), 1000);
	fill(own, sizeof(own), id);
	for (int i = 0; i < ROUNDS; i++) {
		void *got;
		size_t size;

		if (diskcache_store(&cache, shared_key, "bin", shared, sizeof(shared)) != CLWARP_OK)
			return 2;
		if (diskcache_load(&cache, shared_key, "bin", &got, &size) != 1)
			return 3;
		if (size != sizeof(shared) || memcmp(got, shared, size) != 0) {
			free(got);
			return 4;
		}
		free(got);
		if (diskcache_store(&cache, own_key, "bin", own, sizeof(own)) != CLWARP_OK)
			return 5;
		if (diskcache_load(&cache, own_key, "bin", &got, &size) != 1)
			return 6;
		free(got);
	}
	diskcache_close(&cache);
	return 0;
}

START_TEST(test_concurrent_writers)
{
	pid_t pids[WRITERS];
	struct diskcache cache;
	uint8_t key[32], shared[SHARED_SIZE];
	DIR *d;
	struct dirent *de;
	int entries = 0;

	setup();
	open_cache(&cache, 0);
	for (unsigned i = 0; i < WRITERS; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if (pids[i] == 0)
			_exit(writer(i));
	}
	for (unsigned i = 0; i < WRITERS; i++) {
		int status;

		ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		              "writer %u failed with status %d", i, status);
	}

	make_key(1000, key);
	fill(shared, sizeof(shared), 1000);
	expect_hit(&cache, key, "bin", shared, sizeof(shared));

	/* Every temp file was renamed or removed. */
	d = opendir(cache_path);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ck_abort_msg("leftover %s", de->d_name);
		if (de->d_name[0] != '.')
			entries++;
	}
	closedir(d);
	ck_assert_int_eq(entries, WRITERS + 1);
	ck_assert_int_eq(warnings, 0);
	diskcache_close(&cache);
	teardown();
}
END_TEST

static void
add_tests(TCase *tc)
{
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_miss_and_bad_kind);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_flipped_bytes);
	tcase_add_test(tc, test_wrong_key);
	tcase_add_test(tc, test_bad_files);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_concurrent_writers);
}

int
main(void)
{
	return diskcache_test_main("diskcache", add_tests);
}
