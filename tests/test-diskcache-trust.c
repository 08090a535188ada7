/* Tests for whom the disk cache trusts: folders and parents that others can
 * write or own, symbolic links, other users' entries, a group-shared cache.
 * The other user is "nobody": making its files needs root (CI runs as
 * root); elsewhere those cases print why they skip. */
/* SPDX-License-Identifier: MIT */
#include <grp.h>
#include <pwd.h>

#include "diskcache-testutil.h"
#include "test-env.h"

static uid_t nobody_uid;
static gid_t nobody_gid;

/* Whether files can be given to "nobody"; prints why not, once per case. */
static int
can_chown(const char *test)
{
	struct passwd *pw = getpwnam("nobody");

	if (geteuid() != 0 || !pw) {
		const char *why = pw ? "not root, so cannot chown to nobody" : "no user \"nobody\"";

		/* CI runs as root: there a skipped part is a hole. */
		ck_assert_msg(!test_require_all(), "%s: CLWARP_TEST_REQUIRE_ALL is set, and %s", test, why);
		printf("%s: SKIP the other user's files: %s\n", test, why);
		return 0;
	}
	nobody_uid = pw->pw_uid;
	nobody_gid = pw->pw_gid;
	return 1;
}

static void
make_dir(const char *path, mode_t mode)
{
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(chmod(path, mode), 0); /* past the umask */
}

/* diskcache_open refuses @p dir with one warning that names @p name and says
 * @p reason; the refused cache stores nothing and always misses. */
static void
expect_refused(const char *dir, const char *group, const char *name, const char *reason)
{
	struct diskcache cache;
	uint8_t key[32];
	int before = warnings;

	ck_assert_int_eq(diskcache_open(&cache, dir, group, 0, 0, &logger), CLWARP_OK);
	ck_assert_msg(cache.dir == NULL, "%s was accepted", dir);
	ck_assert_int_eq(warnings, before + 1);
	ck_assert_msg(strstr(last_warning, name) && strstr(last_warning, reason),
	              "warning \"%s\" lacks \"%s\" or \"%s\"", last_warning, name, reason);
	make_key(1, key);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_OK);
	expect_miss(&cache, key, "bin");
	ck_assert_int_eq(warnings, before + 1);
	diskcache_close(&cache);
}

static void
expect_accepted(const char *dir, const char *group)
{
	struct diskcache cache;
	uint8_t key[32];
	int before = warnings;

	ck_assert_int_eq(diskcache_open(&cache, dir, group, 0, 0, &logger), CLWARP_OK);
	ck_assert_msg(cache.dir != NULL, "%s was refused: %s", dir, last_warning);
	make_key(2, key);
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_OK);
	expect_hit(&cache, key, "bin", "abc", 3);
	ck_assert_int_eq(warnings, before);
	diskcache_close(&cache);
}

START_TEST(test_writable_folder)
{
	setup();
	make_dir(cache_path, 0777);
	expect_refused(cache_path, NULL, cache_path, "writable by others (mode 0777)");
	ck_assert_int_eq(chmod(cache_path, 0770), 0);
	expect_refused(cache_path, NULL, cache_path, "writable by its group (mode 0770)");
	/* Readable by all is no risk. */
	ck_assert_int_eq(chmod(cache_path, 0755), 0);
	expect_accepted(cache_path, NULL);
	teardown();
}
END_TEST

START_TEST(test_folder_of_another_user)
{
	char want[64];

	setup();
	if (!can_chown("test_folder_of_another_user")) {
		teardown();
		return;
	}
	make_dir(cache_path, 0700);
	ck_assert_int_eq(chown(cache_path, nobody_uid, nobody_gid), 0);
	snprintf(want, sizeof(want), "owned by uid %lu, not by you", (unsigned long)nobody_uid);
	expect_refused(cache_path, NULL, cache_path, want);
	teardown();
}
END_TEST

START_TEST(test_parents)
{
	char parent[4096], dir[4200], want[4400];

	setup();
	snprintf(parent, sizeof(parent), "%s/parent", tmp_root);
	snprintf(dir, sizeof(dir), "%s/cache", parent);
	make_dir(parent, 0777);
	make_dir(dir, 0700);
	snprintf(want, sizeof(want), "its parent %s is writable by others (mode 0777)", parent);
	expect_refused(dir, NULL, dir, want);
	/* Group-writable parents are the parent's owner's business. */
	ck_assert_int_eq(chmod(parent, 0775), 0);
	expect_accepted(dir, NULL);
	if (can_chown("test_parents")) {
		/* Root-owned and sticky (/tmp): nobody renames what is not theirs. */
		ck_assert_int_eq(chmod(parent, 01777), 0);
		expect_accepted(dir, NULL);
		/* Another user's parent: they can swap the folder at will. */
		ck_assert_int_eq(chmod(parent, 0755), 0);
		ck_assert_int_eq(chown(parent, nobody_uid, nobody_gid), 0);
		snprintf(want, sizeof(want), "its parent %s (writable) is owned by uid %lu", parent,
		         (unsigned long)nobody_uid);
		expect_refused(dir, NULL, dir, want);
		/* ... and so is a sticky one that root does not own. */
		ck_assert_int_eq(chmod(parent, 01777), 0);
		expect_refused(dir, NULL, dir, "writable by others");
	}
	teardown();
}
END_TEST

START_TEST(test_symlinked_folder)
{
	char real[4096], link[4096], elsewhere[4096], want[9000];
	struct diskcache cache;

	setup();
	/* A link to a folder anyone can write is that folder: refused, and the
	 * warning names both. */
	snprintf(real, sizeof(real), "%s/real", tmp_root);
	snprintf(link, sizeof(link), "%s/link", tmp_root);
	make_dir(real, 0777);
	ck_assert_int_eq(symlink(real, link), 0);
	snprintf(want, sizeof(want), "%s (%s)", link, real);
	expect_refused(link, NULL, want, "writable by others");

	/* A link to a good folder is used through the folder's own path, so
	 * pointing the link elsewhere later does not move the cache. */
	ck_assert_int_eq(chmod(real, 0700), 0);
	ck_assert_int_eq(diskcache_open(&cache, link, NULL, 0, 0, &logger), CLWARP_OK);
	ck_assert_ptr_nonnull(cache.dir);
	ck_assert_str_eq(cache.dir, real);
	snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", tmp_root);
	make_dir(elsewhere, 0777);
	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(symlink(elsewhere, link), 0);
	{
		uint8_t key[32];
		char path[8192];

		make_key(3, key);
		ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_OK);
		entry_path(path, sizeof(path), real, key, "bin");
		ck_assert(exists(path));
		entry_path(path, sizeof(path), elsewhere, key, "bin");
		ck_assert(!exists(path));
	}
	diskcache_close(&cache);
	teardown();
}
END_TEST

/* A valid entry, left in @p dir by a cache of its own. */
static void
store_in(const char *dir, const uint8_t key[32], const void *payload, size_t n)
{
	struct diskcache other;

	ck_assert_int_eq(diskcache_open(&other, dir, NULL, 0, 0, NULL), CLWARP_OK);
	ck_assert_ptr_nonnull(other.dir);
	ck_assert_int_eq(diskcache_store(&other, key, "bin", payload, n), CLWARP_OK);
	diskcache_close(&other);
}

START_TEST(test_symlinked_entry)
{
	char elsewhere[2048], path[4096], target[4096];
	struct diskcache cache;
	uint8_t key[32];

	setup();
	snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", tmp_root);
	make_key(4, key);
	store_in(elsewhere, key, "planted", 7);
	open_cache(&cache, 0);
	entry_path(target, sizeof(target), elsewhere, key, "bin");
	entry_path(path, sizeof(path), cache_path, key, "bin");
	ck_assert_int_eq(symlink(target, path), 0);
	/* The link's target is a valid entry of ours, yet it is not followed. */
	expect_miss(&cache, key, "bin");
	ck_assert_int_eq(warnings, 1);
	ck_assert_ptr_nonnull(strstr(last_warning, path));
	ck_assert_ptr_nonnull(strstr(last_warning, "symbolic link"));
	ck_assert(exists(path) && exists(target));
	/* A store replaces the link itself, not its target. */
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", "fresh", 5), CLWARP_OK);
	expect_hit(&cache, key, "bin", "fresh", 5);
	{
		size_t n;
		uint8_t *raw = read_file(target, &n);

		ck_assert_uint_eq(n, DISKCACHE_HEADER_SIZE + 7);
		ck_assert_mem_eq(raw + DISKCACHE_HEADER_SIZE, "planted", 7);
		free(raw);
	}
	ck_assert_int_eq(warnings, 1);
	diskcache_close(&cache);
	teardown();
}
END_TEST

/* Loading @p key misses with one more warning saying @p reason; the file
 * stays, and neither remove nor eviction deletes it. */
static void
expect_ignored(struct diskcache *cache, const uint8_t key[32], const char *reason)
{
	char path[4096];
	int before = warnings;

	entry_path(path, sizeof(path), cache->dir, key, "bin");
	expect_miss(cache, key, "bin");
	ck_assert_int_eq(warnings, before + 1);
	ck_assert_msg(strstr(last_warning, path) && strstr(last_warning, reason),
	              "warning \"%s\" lacks \"%s\"", last_warning, reason);
	diskcache_remove(cache, key, "bin");
	ck_assert(exists(path));
}

START_TEST(test_untrusted_entries)
{
	struct diskcache cache;
	uint8_t key[32], big[600];
	char path[4096];

	setup();
	open_cache(&cache, 1000);
	make_key(5, key);
	entry_path(path, sizeof(path), cache_path, key, "bin");
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_OK);
	ck_assert_int_eq(chmod(path, 0620), 0);
	expect_ignored(&cache, key, "writable by its group");
	ck_assert_int_eq(chmod(path, 0602), 0);
	expect_ignored(&cache, key, "writable by others");
	if (can_chown("test_untrusted_entries")) {
		ck_assert_int_eq(chmod(path, 0600), 0);
		ck_assert_int_eq(chown(path, nobody_uid, nobody_gid), 0);
		expect_ignored(&cache, key, "owned by another user");
		/* Eviction neither counts nor deletes it: two 688-byte entries of
		 * ours exceed the 1000-byte bound, the foreign one stays. */
		for (int i = 0; i < 2; i++) {
			uint8_t k[32];

			make_key(50 + i, k);
			fill(big, sizeof(big), (unsigned)i);
			ck_assert_int_eq(diskcache_store(&cache, k, "bin", big, sizeof(big)), CLWARP_OK);
		}
		ck_assert(exists(path));
		make_key(50, key);
		expect_miss(&cache, key, "bin"); /* the older one of ours went */
	}
	diskcache_close(&cache);
	teardown();
}
END_TEST

/* The name of a group the user is in (its effective group); a copy, as
 * getgrgid's buffer is overwritten by the next call. */
static const char *
own_group(void)
{
	static char name[256];
	struct group *gr = getgrgid(getegid());

	ck_assert_ptr_nonnull(gr);
	snprintf(name, sizeof(name), "%s", gr->gr_name);
	return name;
}

START_TEST(test_group_shared)
{
	const char *group;
	struct diskcache cache;
	struct stat st;
	uint8_t key[32];
	char path[4096];

	setup();
	group = own_group();
	make_dir(cache_path, 02770);
	ck_assert_int_eq(chown(cache_path, (uid_t)-1, getegid()), 0);
	/* Without the opt-in, a group-writable folder is refused ... */
	expect_refused(cache_path, NULL, cache_path, "writable by its group");
	/* ... with it, the folder is shared, by option or by environment. */
	expect_accepted(cache_path, group);
	setenv("CLWARP_CACHE_GROUP", group, 1);
	ck_assert_int_eq(diskcache_open(&cache, cache_path, NULL, 1, 0, &logger), CLWARP_OK);
	ck_assert_ptr_nonnull(cache.dir);
	diskcache_close(&cache);
	unsetenv("CLWARP_CACHE_GROUP");

	/* Entries are stored for the group to read. */
	ck_assert_int_eq(diskcache_open(&cache, cache_path, group, 0, 0, &logger), CLWARP_OK);
	make_key(6, key);
	entry_path(path, sizeof(path), cache_path, key, "bin");
	ck_assert_int_eq(diskcache_store(&cache, key, "bin", "abc", 3), CLWARP_OK);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_gid, getegid());
	ck_assert_uint_eq(st.st_mode & 07777, 0640);
	/* Group-writable entries of the group are the group's to write. */
	ck_assert_int_eq(chmod(path, 0660), 0);
	expect_hit(&cache, key, "bin", "abc", 3);
	ck_assert_int_eq(chmod(path, 0646), 0);
	expect_ignored(&cache, key, "writable by others");
	ck_assert_int_eq(chmod(path, 0640), 0);
	if (can_chown("test_group_shared")) {
		/* Another member's entry is trusted; a non-member's is not. */
		ck_assert_int_eq(chown(path, nobody_uid, getegid()), 0);
		expect_hit(&cache, key, "bin", "abc", 3);
		ck_assert_int_eq(chown(path, nobody_uid, nobody_gid), 0);
		expect_ignored(&cache, key, "not of the shared group");
	}
	diskcache_close(&cache);

	/* Bad groups: one warning each, memory cache only. */
	expect_refused(cache_path, "clwarp-no-such-group", "clwarp-no-such-group", "no such group");
	if (can_chown("test_group_shared")) {
		struct group *gr = getgrgid(nobody_gid);

		ck_assert_ptr_nonnull(gr);
		if (getegid() != nobody_gid) {
			char name[256];

			snprintf(name, sizeof(name), "%s", gr->gr_name);
			expect_refused(cache_path, name, name, "you are not in that group");
		}
		/* The folder must be of the group. */
		ck_assert_int_eq(chown(cache_path, (uid_t)-1, nobody_gid), 0);
		expect_refused(cache_path, group, cache_path, "its group is gid");
	}
	teardown();
}
END_TEST

static void
add_tests(TCase *tc)
{
	tcase_add_test(tc, test_writable_folder);
	tcase_add_test(tc, test_folder_of_another_user);
	tcase_add_test(tc, test_parents);
	tcase_add_test(tc, test_symlinked_folder);
	tcase_add_test(tc, test_symlinked_entry);
	tcase_add_test(tc, test_untrusted_entries);
	tcase_add_test(tc, test_group_shared);
}

int
main(void)
{
	return diskcache_test_main("diskcache-trust", add_tests);
}
