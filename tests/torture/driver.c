/* Cache torture test: many processes share one small disk cache while the driver breaks it. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diskcache.h"
#include "diskcache_evict.h"
#include "driver.h"
#include "../test-env.h"

/*
 * Usage: torture WORKER_EXE (meson test --suite torture). See
 * docs/reliability.md, "Cache torture test": the run is a series of rounds; in each,
 * CLWARP_TORTURE_WORKERS worker processes at a time build and check jobs
 * in one cache folder while the driver kills builders and writers and
 * damages entries; some rounds also make the folder read-only, a full
 * tmpfs, a regular file or missing. Between rounds no worker runs: the
 * driver counts leftover temp files, ages them past the cache's stale age,
 * damages more entries and changes the included header.
 *
 * Exit status: 0 passed, 1 failed, 77 skipped: not root, or no private
 * mount namespace with tmpfs and bind mounts here (a chroot, a container);
 * the read-only and full folders need one. CLWARP_TEST_REQUIRE_ALL=1
 * turns a skip into a failure (CI).
 */

#define SKIP 77
/* Mean seconds between random SIGKILLs of builders, and between damaged entries. */
#define KILL_MEAN 8.0
#define CORRUPT_MEAN 5.0
/* Crashed or failed workers after which no more are started. */
#define GIVE_UP 50
/* The TORTURE_K values the include programs cycle through, one per round. */
static const int k_values[] = { 3, 5, 7 };
/* Jobs that workers pick 3 times in 4: identical builds at once, and disk hits. */
static const char *const hot_jobs[] = { "0:1", "1:2", "2:1", "4:1" };
/* Rounds go by this list; the first MIN_ROUNDS always run. */
#define MIN_ROUNDS 6
static const enum mode rotation[] = {
	MODE_NORMAL, MODE_READ_ONLY, MODE_FILE, MODE_NORMAL,
	MODE_FULL, MODE_VANISH, MODE_NORMAL, MODE_NORMAL,
};
static const char *const mode_names[] = { "normal", "read-only", "full", "file", "vanish" };

double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

uint64_t
rnd(struct torture *t)
{
	/* xorshift64* */
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 0x2545f4914f6cdd1du;
}

double
rnd_unit(struct torture *t)
{
	return (double)(rnd(t) >> 11) / 9007199254740992.0;
}

static double
rnd_interval(struct torture *t, double mean)
{
	return -mean * log(1.0 - rnd_unit(t));
}

static double
env_number(const char *name, double fallback, double min, double max)
{
	const char *v = getenv(name);
	char *end;
	double d;

	if (!v || !*v)
		return fallback;
	d = strtod(v, &end);
	if (*end || d < min || d > max) {
		fprintf(stderr, "torture: %s=\"%s\": expected a number from %g to %g\n", name, v, min, max);
		exit(1);
	}
	return d;
}

static void
write_text(const char *dir, const char *name, const char *text)
{
	char path[PATH_SIZE + 64], tmp[PATH_SIZE + 80];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	if (!(f = fopen(tmp, "w")) || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "torture: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static void
set_k(struct torture *t, int k)
{
	char text[64];

	t->k = k;
	snprintf(text, sizeof(text), "#define TORTURE_K %d\n", k);
	write_text(t->inc, TORTURE_K_HEADER, text);
}

/* Undoes the \ooo escapes of /proc/self/mountinfo in place. */
static void
unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/*
 * A test that cannot run here skips (77) with one line saying why. Where
 * CLWARP_TEST_REQUIRE_ALL is set (CI, which can give everything) a skip
 * is a failure instead: CI never passes by silently skipping.
 */
static int
skip(const char *why)
{
	const char *require = getenv("CLWARP_TEST_REQUIRE_ALL");

	if (require && *require && strcmp(require, "0") != 0) {
		printf("torture: FAIL: CLWARP_TEST_REQUIRE_ALL is set, and %s\n", why);
		return 1;
	}
	printf("torture: SKIP: %s\n", why);
	return SKIP;
}

/*
 * A mount namespace of our own whose mounts do not propagate anywhere, so
 * no mount outlives us or shows outside. As `unshare -m` does, "/" is made
 * private; in a chroot whose root is not a mount point that fails, and the
 * mount holding our temp folder is made private instead. Where neither
 * works (a chroot whose temp folder is on no mount of its own, a container
 * without the privilege), the machine cannot give what the read-only and
 * full folders need: @p why says so, and the test skips.
 */
static int
private_mounts(const char *folder, char *why, size_t why_size)
{
	char line[4096], best[PATH_SIZE] = "";
	FILE *f;
	int err;

	if (unshare(CLONE_NEWNS) != 0) {
		snprintf(why, why_size, "no mount namespace here (unshare(CLONE_NEWNS): %s); the "
		         "read-only and full cache folders need one", strerror(errno));
		return -1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		return 0;
	err = errno;
	if ((f = fopen("/proc/self/mountinfo", "r"))) {
		while (fgets(line, sizeof(line), f)) {
			char point[PATH_SIZE];
			size_t n;

			if (sscanf(line, "%*s %*s %*s %*s %1023s", point) != 1)
				continue;
			unescape(point);
			n = strlen(point);
			if (strncmp(folder, point, n) == 0 && (folder[n] == '/' || n == 1) &&
			    n > strlen(best))
				snprintf(best, sizeof(best), "%s", point);
		}
		fclose(f);
	}
	if (best[0]) {
		if (mount(NULL, best, NULL, MS_REC | MS_PRIVATE, NULL) == 0)
			return 0;
		err = errno;
	}
	snprintf(why, why_size, "cannot make / or the mount holding %s private (%s), as in a "
	         "chroot whose root is not a mount point (mount --bind ROOT ROOT gives one)",
	         folder, strerror(err));
	return -1;
}

/*
 * The faults mount a tmpfs and a read-only bind mount on the cache folder:
 * try both once on a folder of our own, so that a machine that allows the
 * namespace but not these mounts skips instead of failing round by round.
 */
static int
probe_mounts(const char *root, char *why, size_t why_size)
{
	char probe[PATH_SIZE];
	int ok;

	snprintf(probe, sizeof(probe), "%s/mount-probe", root);
	if (mkdir(probe, 0700) != 0 && errno != EEXIST) {
		snprintf(why, why_size, "cannot make %s: %s", probe, strerror(errno));
		return -1;
	}
	ok = mount("clwarp-probe", probe, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k") == 0;
	if (!ok || umount(probe) != 0) {
		snprintf(why, why_size, "cannot mount a tmpfs here (%s); the full cache folder needs one",
		         strerror(errno));
		rmdir(probe);
		return -1;
	}
	ok = mount(probe, probe, NULL, MS_BIND, NULL) == 0;
	if (ok && mount(NULL, probe, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0) {
		umount(probe);
		ok = 0;
	}
	if (!ok || umount(probe) != 0) {
		snprintf(why, why_size, "cannot make a read-only bind mount here (%s); the read-only "
		         "cache folder needs one", strerror(errno));
		rmdir(probe);
		return -1;
	}
	rmdir(probe);
	return 0;
}

/* One or two jobs; only one late in a round, so that the round ends sooner. */
static void
spawn_random(struct torture *t, int late)
{
	char text[2][32], *jobs[2];
	size_t n = late ? 1 : 1 + rnd(t) % 2;

	for (size_t i = 0; i < n; i++) {
		if (rnd(t) % 4 < 3)
			snprintf(text[i], sizeof(text[i]), "%s", hot_jobs[rnd(t) % 4]);
		else
			snprintf(text[i], sizeof(text[i]), "%u:%u", (unsigned)(rnd(t) % torture_program_count),
				 (unsigned)(1 + rnd(t) % 6));
		jobs[i] = text[i];
	}
	procs_spawn(t, jobs, n, 0);
}

static void
run_round(struct torture *t, enum mode mode, double window)
{
	double start = now_s(), now = start, stop = start + window;
	double switch_at = mode == MODE_NORMAL ? INFINITY : start + rnd_unit(t) * window / 3;
	double next_kill = start + rnd_interval(t, KILL_MEAN);
	double next_corrupt = start + rnd_interval(t, CORRUPT_MEAN);
	unsigned long runs = t->st.runs, started = t->st.started;
	struct folder_scan scan;

	while (now < stop || procs_alive(t)) {
		if (t->st.crashes + t->st.failed >= GIVE_UP && stop > now) {
			printf("torture: %d workers crashed or failed: giving up\n", GIVE_UP);
			stop = now;
		}
		if (now < stop) {
			while (procs_alive(t) < t->cfg.workers)
				spawn_random(t, now > stop - window / 3);
		}
		if (now >= switch_at) {
			mode_apply(t, mode);
			switch_at = INFINITY;
		}
		if (now >= next_kill) {
			procs_kill_random_builder(t);
			next_kill = now + rnd_interval(t, KILL_MEAN);
		}
		if (now >= next_corrupt) {
			corrupt_entry(t, NULL);
			next_corrupt = now + rnd_interval(t, CORRUPT_MEAN);
		}
		procs_check_deadlines(t);
		procs_poll(t, 50);
		now = now_s();
	}
	mode_undo(t);
	scan_folder(t->cache, &scan, NULL, NULL);
	printf("torture: round %d (%s, K=%d): %.1f s, %lu workers, %lu runs checked; folder: %lu "
	       "entries, %llu bytes\n", t->round, mode_names[mode], t->k, now - start,
	       t->st.started - started, t->st.runs - runs, scan.entries,
	       (unsigned long long)scan.bytes);
	fflush(stdout);
}

/* No worker runs here. */
static void
between_rounds(struct torture *t)
{
	struct folder_scan scan;
	unsigned n = 1 + (unsigned)(rnd(t) % 4);

	undo_folders(t);
	scan_folder(t->cache, &scan, t, "main");
	age_tmp_files(t);
	for (unsigned i = 0; i < n; i++)
		corrupt_entry(t, NULL);
	set_k(t, k_values[t->round % 3]);
}

/* One worker, no faults: a program never built before, so it is compiled
 * and stored, and that store's eviction pass must bring the folder within
 * its bound and remove the aged temp files. */
static void
final_store(struct torture *t)
{
	char job[32], *jobs[1] = { job };

	t->clean = 1;
	snprintf(job, sizeof(job), "1:%u", 500 + (unsigned)(rnd(t) % 400));
	if (procs_spawn(t, jobs, 1, 1) != 0)
		return;
	while (procs_alive(t)) {
		procs_check_deadlines(t);
		procs_poll(t, 50);
	}
}

static int
setup(struct torture *t, int argc, char **argv)
{
	const char *base = getenv("CLWARP_TEST_TMPDIR");
	char bound[32];

	/* 30 s of rounds at the reduced test sizes (test-env.h: the
	 * default `meson test`), as in CI's test step: still at least one
	 * round per folder fault. */
	t->cfg.seconds = env_number("CLWARP_TORTURE_SECONDS", test_quick() ? 30 : 90, 1, 86400);
	t->cfg.workers = (unsigned)env_number("CLWARP_TORTURE_WORKERS", 8, 1, 64);
	t->cfg.max_bytes = (uint64_t)env_number("CLWARP_TORTURE_MAX_BYTES", 160 << 10, 4096, 1e12);
	t->cfg.seed = (uint64_t)env_number("CLWARP_TORTURE_SEED", (double)(time(NULL) ^ getpid()), 1, 1e15);
	t->cfg.deadline = env_number("CLWARP_TORTURE_DEADLINE", 180, 5, 86400);
	t->cfg.keep = getenv("CLWARP_TORTURE_KEEP") && strcmp(getenv("CLWARP_TORTURE_KEEP"), "0");
	t->cfg.mounts = !(getenv("CLWARP_TORTURE_NO_MOUNTS") && strcmp(getenv("CLWARP_TORTURE_NO_MOUNTS"), "0"));
	t->rng = t->cfg.seed * 0x9e3779b97f4a7c15u | 1;
	t->inotify_fd = t->full_wd = -1;
	if (argc != 2) {
		fprintf(stderr, "usage: %s WORKER_EXE\n", argv[0]);
		return -1;
	}
	/* Absolute: workers start in the temp folder. */
	if (!(t->cfg.worker_exe = realpath(argv[1], NULL))) {
		fprintf(stderr, "torture: %s: %s\n", argv[1], strerror(errno));
		return -1;
	}

	if (t->cfg.mounts && geteuid() != 0)
		return skip("not root: the read-only and full cache folders need a private mount "
		            "namespace (unshare, bind and tmpfs mounts), which needs root; CI runs this "
		            "as root. Run as root, or set CLWARP_TORTURE_NO_MOUNTS=1 for the other "
		            "faults only");

	if (!base || !*base)
		base = "/tmp";
	mkdir(base, 0700);
	snprintf(t->root, sizeof(t->root), "%s/clwarp-torture-XXXXXX", base);
	if (!mkdtemp(t->root)) {
		fprintf(stderr, "torture: cannot create a folder in %s: %s\n", base, strerror(errno));
		return -1;
	}
	snprintf(t->cache, sizeof(t->cache), "%s/cache", t->root);
	snprintf(t->aside, sizeof(t->aside), "%s/cache.aside", t->root);
	snprintf(t->inc, sizeof(t->inc), "%s/inc", t->root);
	snprintf(t->logs, sizeof(t->logs), "%s/logs", t->root);
	if (mkdir(t->cache, 0700) != 0 || mkdir(t->inc, 0700) != 0 || mkdir(t->logs, 0700) != 0) {
		fprintf(stderr, "torture: cannot populate %s: %s\n", t->root, strerror(errno));
		return -1;
	}
	write_text(t->inc, TORTURE_INCFILE, torture_incfile_text);
	set_k(t, k_values[0]);
	if (!(t->workers = calloc(t->cfg.workers, sizeof(*t->workers))))
		return -1;

	/* The workers' environment: this cache, this bound, the cache on. PoCL's
	 * own kernel cache off, so that "compiled" means compiled and our kills
	 * cannot damage that cache instead of ours; each worker then gets a
	 * POCL_CACHE_DIR of its own (procs.c): PoCL 3.1 puts the name of the
	 * program's uncached folder into its binaries, so processes loading the
	 * same binary from one POCL_CACHE_DIR share that folder, and the first
	 * to finish deletes it under the others ("Final linking of kernel ...
	 * failed", abort). */
	snprintf(bound, sizeof(bound), "%llu", (unsigned long long)t->cfg.max_bytes);
	setenv("CLWARP_CACHE_DIR", t->cache, 1);
	setenv("CLWARP_CACHE_MAX_BYTES", bound, 1);
	unsetenv("CLWARP_CACHE");
	setenv("POCL_KERNEL_CACHE", "0", 1);
	/* The same for Mesa (rusticl), whose cache sits in ~/.cache. */
	setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
	/* The report counts the cache's debug messages (stores, evictions, drops). */
	setenv("CLWARP_LOG_LEVEL", "debug", 1);
	t->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (t->inotify_fd >= 0 &&
	    inotify_add_watch(t->inotify_fd, t->cache, IN_CREATE | IN_MOVED_TO) < 0) {
		close(t->inotify_fd);
		t->inotify_fd = -1;
	}
	if (t->inotify_fd < 0)
		printf("torture: no inotify (%s): no kills mid-write\n", strerror(errno));
	return 0;
}

static int
report(struct torture *t, const struct folder_scan *before, const struct folder_scan *after,
       double seconds)
{
	unsigned long kills = t->st.faults[FAULT_KILL_BUILD] + t->st.faults[FAULT_KILL_WRITE];
	unsigned long faults = 0, tmp_allowed =
		t->st.faults[FAULT_KILL_WRITE] + t->st.hangs + t->st.switch_tmp;
	uint64_t slack = (kills + t->st.hangs + t->st.switch_writers) * t->st.largest_entry;
	int failed = 0;

	for (int i = 0; i < FAULT_KINDS; i++)
		faults += t->st.faults[i];
	printf("\n==== cache torture report ====\n");
	printf("time                  %.1f s (CLWARP_TORTURE_SECONDS=%g), %d rounds, seed %llu\n",
	       seconds, t->cfg.seconds, t->round, (unsigned long long)t->cfg.seed);
	printf("workers               %lu started, %u at once: %lu exited ok, %lu killed by us\n",
	       t->st.started, t->cfg.workers, t->st.ok, t->st.killed);
	printf("runs checked          %lu (built by: compiled %lu, disk %lu, memory %lu)\n",
	       t->st.runs, t->st.by_source[0], t->st.by_source[1], t->st.by_source[2]);
	printf("cache (workers' logs) %lu stores, %lu evictions, %lu damaged entries dropped, %lu "
	       "binaries rejected by the driver, %lu failed stores, %lu engines without disk cache\n",
	       t->st.stored, t->st.evicted, t->st.dropped, t->st.rejected, t->st.store_failed,
	       t->st.cache_off);
	printf("faults injected       %lu\n", faults);
	for (int i = 0; i < FAULT_KINDS; i++)
		printf("  %-44s %lu\n", fault_names[i], t->st.faults[i]);
	printf("  (temp files picked for a kill that no builder held any more: %lu)\n",
	       t->st.write_kill_misses);
	printf("wrong results         %lu runs, %lu values\n", t->st.wrong_runs, t->st.wrong_values);
	printf("failed API calls      %lu workers\n", t->st.failed);
	printf("crashes               %lu\n", t->st.crashes);
	printf("hangs                 %lu (deadline %g s in one phase)\n", t->st.hangs, t->cfg.deadline);
	printf("temp files left       %lu (at most %lu: one per writer killed holding one, plus %lu "
	       "held open at folder switches)\n", t->st.tmp_left, tmp_allowed, t->st.switch_tmp);
	printf("stale temp files      %lu left ones aged and %lu planted past %d s; %lu still there "
	       "after the final store\n", t->st.tmp_aged, t->st.tmp_planted,
	       DISKCACHE_STALE_TMP_SECONDS, after->stale_tmp);
	printf("cache folder          bound %llu bytes; before the final store %llu bytes in %lu "
	       "entries (tolerance +%llu); after it %llu bytes in %lu entries (tolerance 0); "
	       "%llu bytes in %lu temp files; largest entry %llu\n",
	       (unsigned long long)t->cfg.max_bytes, (unsigned long long)before->bytes,
	       before->entries, (unsigned long long)slack, (unsigned long long)after->bytes,
	       after->entries, (unsigned long long)after->tmp_bytes, after->tmp,
	       (unsigned long long)t->st.largest_entry);

#define CHECK(cond, ...)                                   \
	do {                                               \
		if (!(cond)) {                             \
			printf("FAIL: " __VA_ARGS__);      \
			printf("\n");                      \
			failed = 1;                        \
		}                                          \
	} while (0)
	CHECK(t->st.wrong_runs == 0, "%lu runs gave wrong results", t->st.wrong_runs);
	CHECK(t->st.crashes == 0, "%lu workers crashed", t->st.crashes);
	CHECK(t->st.hangs == 0, "%lu workers hung", t->st.hangs);
	CHECK(t->st.failed == 0, "%lu workers saw an API call fail", t->st.failed);
	CHECK(t->st.runs > 0, "no run finished at all");
	CHECK(t->st.setup_errors == 0, "%lu folder faults could not be made or undone",
	      t->st.setup_errors);
	CHECK(t->st.final_ok && t->st.final_source == 'c',
	      "the final clean build did not compile and pass (%s)",
	      t->st.final_ok ? "it was not compiled: a key collision?" : "it failed");
	CHECK(t->st.final_stored, "the final clean build was not stored");
	CHECK(after->bytes <= t->cfg.max_bytes, "the folder ends above its bound");
	CHECK(before->bytes <= t->cfg.max_bytes + slack, "the folder was above bound + tolerance");
	CHECK(after->stale_tmp == 0, "stale temp files were not removed");
	CHECK(t->st.tmp_left <= tmp_allowed, "more temp files left than writers killed");
#undef CHECK
	printf("result                %s\n", failed ? "FAILED" : "passed");
	return failed;
}

int
main(int argc, char **argv)
{
	static struct torture t;
	struct folder_scan before, after;
	double window;
	int failed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	failed = setup(&t, argc, argv);
	if (failed)
		return failed == SKIP ? SKIP : 1;
	if (t.cfg.mounts) {
		char why[3 * PATH_SIZE];

		if (private_mounts(t.root, why, sizeof(why)) != 0 ||
		    probe_mounts(t.root, why, sizeof(why)) != 0) {
			rm_rf(t.root);
			return skip(why);
		}
	}
	/* A real-time driver wakes on a new temp file at once and can stop its
	 * writer before it is done (workers go back to normal: reset on fork).
	 * Without the privilege the driver only catches slower writers. */
	{
		struct sched_param sp = { .sched_priority = 1 };

		/* Reset on fork means nice 0: procs.c restores ours + 5. */
		t.worker_nice = getpriority(PRIO_PROCESS, 0) + 5;
		t.realtime = sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) == 0;
	}
	printf("torture: %g s, %u workers at once, cache bound %llu bytes, seed %llu, folder %s%s%s\n",
	       t.cfg.seconds, t.cfg.workers, (unsigned long long)t.cfg.max_bytes,
	       (unsigned long long)t.cfg.seed, t.root, t.cfg.mounts ? "" : " (no mounts)",
	       t.realtime ? "" : " (driver not real-time: fewer kills mid-write)");

	t.t0 = now_s();
	window = t.cfg.seconds / 12 < 3 ? 3 : t.cfg.seconds / 12 > 30 ? 30 : t.cfg.seconds / 12;
	/* At least the first MIN_ROUNDS of the rotation (each folder fault once),
	 * however slow the machine: then past CLWARP_TORTURE_SECONDS. */
	for (t.round = 0; (now_s() - t.t0 < t.cfg.seconds || t.round < MIN_ROUNDS) &&
			  t.st.crashes + t.st.failed < GIVE_UP;
	     t.round++) {
		enum mode mode = rotation[t.round % (sizeof(rotation) / sizeof(rotation[0]))];
		double left = t.cfg.seconds - (now_s() - t.t0);

		if (left < 3)
			left = 3;

		if (t.round > 0)
			between_rounds(&t);
		if (!t.cfg.mounts && (mode == MODE_READ_ONLY || mode == MODE_FULL))
			mode = MODE_NORMAL;
		run_round(&t, mode, left < window ? left : window);
	}
	undo_folders(&t);
	scan_folder(t.cache, &before, &t, "main");
	final_store(&t);
	scan_folder(t.cache, &after, &t, "main");
	failed = report(&t, &before, &after, now_s() - t.t0);
	if (failed || t.cfg.keep)
		printf("torture: kept %s\n", t.root);
	else
		rm_rf(t.root);
	return failed;
}
