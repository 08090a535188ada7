/* Program cache trust tests: a planted binary, refused folders, a symlinked
 * entry and a group-shared cache, each through a real build and launch.
 * The other user is "nobody": making its files needs root (CI runs as
 * root); elsewhere those cases print why they skip. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <grp.h>
#include <pwd.h>

#include "diskcache.h"
#include "testutil.h"

/* The victim adds one; the attacker's program, of the same kernel name,
 * doubles. A result of in * 2 means the planted code ran. */
static const char victim_src[] =
	"kernel void k(global const int *in, global int *out)\n"
	"{ size_t i = get_global_id(0); out[i] = in[i] + 1; }\n";
static const char attacker_src[] =
	"kernel void k(global const int *in, global int *out)\n"
	"{ size_t i = get_global_id(0); out[i] = in[i] * 2; }\n";

enum { N = 64 };

static int warnings_seen;
static char last_warning[2048];

static void
count_warnings(clwarp_log_level level, const char *message, void *data)
{
	(void)data;
	if (level == CLWARP_LOG_WARNING) {
		warnings_seen++;
		snprintf(last_warning, sizeof(last_warning), "%s", message);
	}
}

static int
can_chown(const char *test, uid_t *uid, gid_t *gid)
{
	struct passwd *pw = getpwnam("nobody");

	if (geteuid() != 0 || !pw) {
		const char *why = pw ? "not root, so cannot chown to nobody" : "no user \"nobody\"";

		/* CI runs as root: there a skipped part is a hole. */
		ck_assert_msg(!test_require_all(), "%s: CLWARP_TEST_REQUIRE_ALL is set, and %s", test, why);
		printf("%s: SKIP the other user's files: %s\n", test, why);
		return 0;
	}
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return 1;
}

/*
 * Builds @p src on a fresh engine with its disk cache in @p cache (shared
 * by @p group when not NULL), runs it on 0..N-1 and checks out[i] ==
 * in[i] * @p mul + @p add. Returns the build source; warnings_seen counts
 * the engine's warnings from zero.
 */
static clwarp_build_source
build_and_run(const char *cache, const char *group, const char *src, int mul, int add)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;
	clwarp_program *p = NULL;
	clwarp_build_info info;
	clwarp_build_source source;
	int in[N], *out;

	clwarp_engine_options_init(&o);
	o.cache_dir = cache;
	o.cache_group = group;
	o.log_fn = count_warnings;
	warnings_seen = 0;
	last_warning[0] = '\0';
	ck_assert_clwarp_ok(clwarp_engine_new(&o, &e));
	ck_assert_clwarp_ok(clwarp_program_build_source(e, src, "k.cl", NULL, &p, &info));
	for (int i = 0; i < N; i++)
		in[i] = i * 7 - 100;
	out = test_run_int_kernel(e, p, "k", in, N, 0);
	for (int i = 0; i < N; i++)
		ck_assert_msg(out[i] == in[i] * mul + add, "out[%d] = %d, want %d", i, out[i],
		              in[i] * mul + add);
	free(out);
	source = info.source;
	clwarp_build_info_free(&info);
	clwarp_engine_free(e);
	return source;
}

static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	ck_assert_int_gt(len, DISKCACHE_HEADER_SIZE);
	buf = malloc((size_t)len);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return buf;
}

/*
 * The attack of docs/cache.md, "Trust": the attacker's binary entry, its
 * header given the victim's key (bytes 16-47), written to @p where (mode
 * 0600, owned by the caller). Afterwards @p cache holds the victim's entry
 * and the returned path names it.
 */
static char *
forge(const char *dir, const char *cache, const char *where)
{
	char evil[4300];
	char *victim, *attacker;
	uint8_t *v, *a;
	size_t vn, an;
	FILE *f;

	snprintf(evil, sizeof(evil), "%s/attacker-cache", dir);
	ck_assert_int_eq(build_and_run(cache, NULL, victim_src, 1, 1), CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(build_and_run(evil, NULL, attacker_src, 2, 0), CLWARP_BUILD_COMPILED);
	victim = test_only_binary_entry(cache);
	attacker = test_only_binary_entry(evil);
	v = slurp(victim, &vn);
	a = slurp(attacker, &an);
	memcpy(a + 16, v + 16, 32);
	f = fopen(where ? where : victim, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(a, 1, an, f), an);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(where ? where : victim, 0600), 0);
	free(v);
	free(a);
	free(attacker);
	return victim;
}

START_TEST(test_planted_entry)
{
	char *dir = test_tmpdir(), cache[4200];
	char *entry;
	struct stat st;
	uid_t uid;
	gid_t gid;

	snprintf(cache, sizeof(cache), "%s/cache", dir);
	entry = forge(dir, cache, NULL);
	/* The forgery is sound: owned by the user, it is loaded and runs the
	 * attacker's code. This is what the ownership check has to stop. */
	ck_assert_int_eq(build_and_run(cache, NULL, victim_src, 2, 0), CLWARP_BUILD_DISK_HIT);
	ck_assert_int_eq(warnings_seen, 0);
	if (can_chown("test_planted_entry", &uid, &gid)) {
		/* Planted by another user: ignored with one warning, rebuilt. */
		ck_assert_int_eq(chown(entry, uid, gid), 0);
		ck_assert_int_eq(build_and_run(cache, NULL, victim_src, 1, 1), CLWARP_BUILD_COMPILED);
		ck_assert_int_eq(warnings_seen, 1);
		ck_assert_msg(strstr(last_warning, entry) && strstr(last_warning, "owned by another user"),
		              "warning: %s", last_warning);
		/* The fresh build took the name: the user's own entry now. */
		ck_assert_int_eq(stat(entry, &st), 0);
		ck_assert_uint_eq(st.st_uid, geteuid());
		ck_assert_int_eq(build_and_run(cache, NULL, victim_src, 1, 1), CLWARP_BUILD_DISK_HIT);
		ck_assert_int_eq(warnings_seen, 0);
	}
	free(entry);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/* The same forged entry, the user's own, but reached through a symbolic
 * link: not followed, so the victim's code runs. */
START_TEST(test_symlinked_entry)
{
	char *dir = test_tmpdir(), cache[4200], outside[4300];
	char *entry;

	snprintf(cache, sizeof(cache), "%s/cache", dir);
	snprintf(outside, sizeof(outside), "%s/forged.bin", dir);
	entry = forge(dir, cache, outside);
	ck_assert_int_eq(unlink(entry), 0);
	ck_assert_int_eq(symlink(outside, entry), 0);
	ck_assert_int_eq(build_and_run(cache, NULL, victim_src, 1, 1), CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(warnings_seen, 1);
	ck_assert_msg(strstr(last_warning, entry) && strstr(last_warning, "symbolic link"),
	              "warning: %s", last_warning);
	ck_assert_int_eq(build_and_run(cache, NULL, victim_src, 1, 1), CLWARP_BUILD_DISK_HIT);
	ck_assert_int_eq(warnings_seen, 0);
	free(entry);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/* One warning naming the folder, no disk cache: each build compiles and
 * gives the right results, and nothing lands in the folder. */
static void
expect_folder_refused(const char *cache, const char *group, const char *reason)
{
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(build_and_run(cache, group, victim_src, 1, 1), CLWARP_BUILD_COMPILED);
		ck_assert_int_eq(warnings_seen, 1);
		ck_assert_msg(strstr(last_warning, cache) && strstr(last_warning, reason),
		              "warning \"%s\" lacks \"%s\"", last_warning, reason);
	}
}

static size_t
count_files(const char *folder)
{
	DIR *d = opendir(folder);
	struct dirent *ent;
	size_t n = 0;

	ck_assert_ptr_nonnull(d);
	while ((ent = readdir(d)))
		n += ent->d_name[0] != '.';
	closedir(d);
	return n;
}

START_TEST(test_refused_folders)
{
	char *dir = test_tmpdir(), open_dir[4200], link[4200], theirs[4200];
	uid_t uid;
	gid_t gid;

	/* As a user might: mkdir -m 0777 /tmp/shc. */
	snprintf(open_dir, sizeof(open_dir), "%s/shc", dir);
	ck_assert_int_eq(mkdir(open_dir, 0700), 0);
	ck_assert_int_eq(chmod(open_dir, 0777), 0);
	expect_folder_refused(open_dir, NULL, "writable by others");
	/* A link to it. */
	snprintf(link, sizeof(link), "%s/link", dir);
	ck_assert_int_eq(symlink(open_dir, link), 0);
	expect_folder_refused(link, NULL, "writable by others");
	ck_assert_uint_eq(count_files(open_dir), 0);
	if (can_chown("test_refused_folders", &uid, &gid)) {
		/* Private, but another user's: they chose what goes in it. */
		snprintf(theirs, sizeof(theirs), "%s/theirs", dir);
		ck_assert_int_eq(mkdir(theirs, 0700), 0);
		ck_assert_int_eq(chown(theirs, uid, gid), 0);
		expect_folder_refused(theirs, NULL, "owned by uid");
		ck_assert_uint_eq(count_files(theirs), 0);
	}
	test_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_group_shared)
{
	char *dir = test_tmpdir(), shared[4200], group[256];
	struct group *gr = getgrgid(getegid());
	struct stat st;
	char *entry;
	uid_t uid;
	gid_t gid;

	ck_assert_ptr_nonnull(gr);
	snprintf(group, sizeof(group), "%s", gr->gr_name);
	/* As docs/cache.md sets one up: setgid, the group's, 2770. */
	snprintf(shared, sizeof(shared), "%s/shared", dir);
	ck_assert_int_eq(mkdir(shared, 0700), 0);
	ck_assert_int_eq(chown(shared, (uid_t)-1, getegid()), 0);
	ck_assert_int_eq(chmod(shared, 02770), 0);
	ck_assert_int_eq(build_and_run(shared, group, victim_src, 1, 1), CLWARP_BUILD_COMPILED);
	ck_assert_int_eq(warnings_seen, 0);
	entry = test_only_binary_entry(shared);
	ck_assert_int_eq(stat(entry, &st), 0);
	ck_assert_uint_eq(st.st_gid, getegid());
	ck_assert_uint_eq(st.st_mode & 07777, 0640);
	ck_assert_int_eq(build_and_run(shared, group, victim_src, 1, 1), CLWARP_BUILD_DISK_HIT);
	if (can_chown("test_group_shared", &uid, &gid)) {
		/* Another member's entry (nobody, of the group) is used ... */
		ck_assert_int_eq(chown(entry, uid, getegid()), 0);
		ck_assert_int_eq(build_and_run(shared, group, victim_src, 1, 1), CLWARP_BUILD_DISK_HIT);
		ck_assert_int_eq(warnings_seen, 0);
		/* ... one of another group is not. */
		ck_assert_int_eq(chown(entry, uid, gid), 0);
		ck_assert_int_eq(build_and_run(shared, group, victim_src, 1, 1), CLWARP_BUILD_COMPILED);
		ck_assert_int_eq(warnings_seen, 1);
		ck_assert_ptr_nonnull(strstr(last_warning, "not of the shared group"));
	}
	/* Without the opt-in the same folder is refused. */
	expect_folder_refused(shared, NULL, "writable by its group");
	free(entry);
	test_rmtree(dir);
	free(dir);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("cache-trust", &tc);

	test_store_binaries_on_pocl();
	ADD_TEST(tc, test_planted_entry);
	ADD_TEST(tc, test_symlinked_entry);
	ADD_TEST(tc, test_refused_folders);
	ADD_TEST(tc, test_group_shared);
	return test_main(s);
}
