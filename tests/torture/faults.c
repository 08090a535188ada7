/* Cache torture test: damaged entries and cache folders that are read-only, full or gone. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "diskcache.h"
#include "diskcache_evict.h"
#include "driver.h"

/* The tmpfs of MODE_FULL, and how much of it is left free (at random). */
#define FULL_SIZE "256k"
#define FULL_FREE_MIN (8u << 10)
#define FULL_FREE_MAX (120u << 10)
/* Entries copied from the real folder into the tmpfs, so it also has hits. */
#define FULL_COPIES 2

const char *const fault_names[FAULT_KINDS] = {
	"SIGKILL mid-build",
	"SIGKILL mid-write (temp file open)",
	"byte flipped in an entry",
	"entry truncated",
	"entry cut to 0 bytes",
	"two entries' files swapped",
	"folder in place of an entry",
	"named pipe in place of an entry",
	"cache folder read-only (rounds)",
	"cache folder a full tmpfs (rounds)",
	"regular file in place of the folder (rounds)",
	"cache folder removed (rounds)",
};

/* Same rule as diskcache_is_entry_name() in src/diskcache_folder.c. */
int
entry_name(const char *name)
{
	size_t n = strlen(name);

	if (n < 66 || n > 64 + 1 + 15 || name[64] != '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (i < 64 ? !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))
			   : i > 64 && !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return 1;
}

int
tmp_name(const char *name)
{
	return strncmp(name, TORTURE_TMP_PREFIX, strlen(TORTURE_TMP_PREFIX)) == 0;
}

/* Counts a temp file once, however often it is seen. */
static void
note_tmp(struct torture *t, const char *tag, const char *name)
{
	char key[512];
	char **list;

	snprintf(key, sizeof(key), "%.200s/%.200s", tag, name);
	for (size_t i = 0; i < t->seen_count; i++) {
		if (strcmp(t->seen_tmp[i], key) == 0)
			return;
	}
	list = realloc(t->seen_tmp, (t->seen_count + 1) * sizeof(*list));
	if (!list || !(list[t->seen_count] = strdup(key))) {
		if (list)
			t->seen_tmp = list;
		return;
	}
	t->seen_tmp = list;
	t->seen_count++;
	t->st.tmp_left++;
}

int
scan_folder(const char *dir, struct folder_scan *scan, struct torture *t, const char *tag)
{
	time_t now = time(NULL);
	struct dirent *de;
	DIR *d;

	memset(scan, 0, sizeof(*scan));
	if (!(d = opendir(dir)))
		return -1;
	while ((de = readdir(d))) {
		struct stat st;

		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (entry_name(de->d_name)) {
			if (S_ISDIR(st.st_mode)) {
				scan->folders++;
			} else if (S_ISREG(st.st_mode)) {
				scan->entries++;
				scan->bytes += (uint64_t)st.st_size;
				if ((uint64_t)st.st_size > scan->largest)
					scan->largest = (uint64_t)st.st_size;
			}
		} else if (tmp_name(de->d_name) && S_ISREG(st.st_mode)) {
			scan->tmp++;
			scan->tmp_bytes += (uint64_t)st.st_size;
			/* Aged ones were counted when we aged them, or we planted them. */
			if (now - st.st_mtim.tv_sec > DISKCACHE_STALE_TMP_SECONDS)
				scan->stale_tmp++;
			else if (tag && t)
				note_tmp(t, tag, de->d_name);
		}
	}
	closedir(d);
	if (t && scan->largest > t->st.largest_entry)
		t->st.largest_entry = scan->largest;
	return 0;
}

/* Names of the regular entry files in dir; returns the count (at most max).
 * *newest (may be NULL) gets the index of the most recently used one. */
static size_t
list_entries(const char *dir, char (*names)[96], size_t max, size_t *newest)
{
	struct timespec best = { 0, 0 };
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	if (newest)
		*newest = 0;
	if (!(d = opendir(dir)))
		return 0;
	while (n < max && (de = readdir(d))) {
		struct stat st;

		if (!entry_name(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (newest && (st.st_mtim.tv_sec > best.tv_sec ||
			       (st.st_mtim.tv_sec == best.tv_sec && st.st_mtim.tv_nsec > best.tv_nsec))) {
			best = st.st_mtim;
			*newest = n;
		}
		memcpy(names[n++], de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
	return n;
}

static int
flip_byte(struct torture *t, const char *path)
{
	int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	unsigned char b;
	off_t at;
	int ok = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		/* Half into the header (magic, version, key, size, checksum), half anywhere. */
		at = (off_t)(rnd(t) % (uint64_t)(rnd(t) % 2 && st.st_size > DISKCACHE_HEADER_SIZE
							 ? DISKCACHE_HEADER_SIZE
							 : st.st_size));
		if (pread(fd, &b, 1, at) == 1) {
			b ^= (unsigned char)(1u << (rnd(t) % 8));
			ok = pwrite(fd, &b, 1, at) == 1;
		}
	}
	close(fd);
	return ok;
}

static int
cut(struct torture *t, const char *path, int to_zero)
{
	struct stat st;

	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 2)
		return 0;
	return truncate(path, to_zero ? 0 : (off_t)(1 + rnd(t) % (uint64_t)(st.st_size - 1))) == 0;
}

static int
make_special(struct torture *t, const char *path, int fifo)
{
	char **list;

	if (unlink(path) != 0 || (fifo ? mkfifo(path, 0600) : mkdir(path, 0700)) != 0)
		return 0;
	list = realloc(t->folders, (t->folder_count + 1) * sizeof(*list));
	if (list) {
		t->folders = list;
		if ((list[t->folder_count] = strdup(path)))
			t->folder_count++;
	}
	return 1;
}

void
corrupt_entry(struct torture *t, const char *name)
{
	static char names[256][96];
	char a[PATH_SIZE + 96], b[PATH_SIZE + 96];
	size_t newest, n = list_entries(t->cache, names, 256, &newest);
	unsigned roll = (unsigned)(rnd(t) % 100);
	enum fault kind;
	int done = 0;

	if (n == 0)
		return;
	/* Half the time the most recently used entry: a disk hit refreshes its
	 * time, so it is likely one that others load again soon. */
	if (!name)
		name = names[rnd(t) % 2 ? newest : rnd(t) % n];
	snprintf(a, sizeof(a), "%s/%s", t->cache, name);
	snprintf(b, sizeof(b), "%s/%s", t->cache, names[rnd(t) % n]);
	kind = roll < 20 ? FAULT_FLIP : roll < 35 ? FAULT_TRUNCATE : roll < 50 ? FAULT_ZERO
	     : roll < 65 ? FAULT_SWAP : roll < 80 ? FAULT_FOLDER : FAULT_FIFO;
	switch (kind) {
	case FAULT_FLIP:
		done = flip_byte(t, a);
		break;
	case FAULT_TRUNCATE:
	case FAULT_ZERO:
		done = cut(t, a, kind == FAULT_ZERO);
		break;
	case FAULT_SWAP:
		done = strcmp(a, b) != 0 && renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0;
		break;
	default:
		done = make_special(t, a, kind == FAULT_FIFO);
		break;
	}
	t->st.faults[kind] += done;
}

/* A store may have renamed a new entry over a pipe: then nothing is left to undo. */
void
undo_folders(struct torture *t)
{
	for (size_t i = 0; i < t->folder_count; i++) {
		struct stat st;

		if (lstat(t->folders[i], &st) == 0 && (S_ISDIR(st.st_mode) || S_ISFIFO(st.st_mode)))
			t->st.folders_undone += (S_ISDIR(st.st_mode) ? rmdir(t->folders[i])
							     : unlink(t->folders[i])) == 0;
		free(t->folders[i]);
	}
	t->folder_count = 0;
}

void
age_tmp_files(struct torture *t)
{
	time_t old = time(NULL) - 2 * DISKCACHE_STALE_TMP_SECONDS;
	struct timespec times[2] = { { old, 0 }, { old, 0 } };
	struct dirent *de;
	char name[32];
	DIR *d;
	int fd;

	if (!(d = opendir(t->cache)))
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (tmp_name(de->d_name) && fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_mtim.tv_sec > old &&
		    utimensat(dirfd(d), de->d_name, times, AT_SYMLINK_NOFOLLOW) == 0)
			t->st.tmp_aged++;
	}
	/* As a writer killed long ago would have left it. */
	snprintf(name, sizeof(name), "%s%s%02u", TORTURE_TMP_PREFIX, "aged", (unsigned)(t->st.tmp_planted % 100));
	fd = openat(dirfd(d), name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, "partial entry", 13) == 13 && futimens(fd, times) == 0)
			t->st.tmp_planted++;
		close(fd);
	}
	closedir(d);
}

static void *
read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *data = NULL;
	long n;

	*size = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (data = malloc((size_t)n)) && fread(data, 1, (size_t)n, f) == (size_t)n) {
		*size = (size_t)n;
	} else {
		free(data);
		data = NULL;
	}
	fclose(f);
	return data;
}

static void
write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return;
	/* 0600 as the cache writes them: under umask 002 the copy would be
	 * a group-writable entry, which the cache ignores as untrusted. */
	fchmod(fileno(f), 0600);
	fwrite(data, 1, size, f);
	fclose(f);
}

/* A 256 KiB tmpfs over the cache folder, with a few of its entries and a
 * filler that leaves FULL_FREE_MIN..MAX bytes. */
static int
mount_full(struct torture *t)
{
	static char names[256][96];
	char path[PATH_SIZE + 96];
	void *copy[FULL_COPIES] = { NULL };
	size_t copy_size[FULL_COPIES] = { 0 }, n = list_entries(t->cache, names, 256, NULL);
	int picks[FULL_COPIES];
	struct statvfs vfs;

	for (int i = 0; i < FULL_COPIES && n; i++) {
		picks[i] = (int)(rnd(t) % n);
		snprintf(path, sizeof(path), "%s/%s", t->cache, names[picks[i]]);
		copy[i] = read_file(path, &copy_size[i]);
	}
	if (mount("clwarp-torture", t->cache, "tmpfs", MS_NOSUID | MS_NODEV, "size=" FULL_SIZE ",mode=0700") != 0) {
		printf("torture: cannot mount a tmpfs on %s: %s\n", t->cache, strerror(errno));
		for (int i = 0; i < FULL_COPIES; i++)
			free(copy[i]);
		return -1;
	}
	for (int i = 0; i < FULL_COPIES; i++) {
		if (copy[i]) {
			snprintf(path, sizeof(path), "%s/%s", t->cache, names[picks[i]]);
			write_file(path, copy[i], copy_size[i]);
			free(copy[i]);
		}
	}
	if (statvfs(t->cache, &vfs) == 0) {
		uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		uint64_t keep = FULL_FREE_MIN + rnd(t) % (FULL_FREE_MAX - FULL_FREE_MIN);

		if (avail > keep) {
			void *zeros = calloc(1, (size_t)(avail - keep));

			snprintf(path, sizeof(path), "%s/filler", t->cache);
			if (zeros)
				write_file(path, zeros, (size_t)(avail - keep));
			free(zeros);
		}
	}
	if (t->inotify_fd >= 0)
		t->full_wd = inotify_add_watch(t->inotify_fd, t->cache, IN_CREATE | IN_MOVED_TO);
	return 0;
}

void
mode_apply(struct torture *t, enum mode mode)
{
	int ok = 0;

	/* Nobody moves while the folder changes under them, so the temp files
	 * caught open (their writers can no longer rename or delete them) are
	 * counted exactly. */
	procs_stop_all(t);
	t->st.switch_tmp += procs_tmp_holders(t);
	t->st.switch_writers += procs_building(t);
	switch (mode) {
	case MODE_READ_ONLY:
		ok = mount(t->cache, t->cache, NULL, MS_BIND, NULL) == 0;
		if (ok && mount(NULL, t->cache, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0) {
			umount(t->cache);
			ok = 0;
		}
		if (!ok)
			printf("torture: cannot make %s read-only: %s\n", t->cache, strerror(errno));
		break;
	case MODE_FULL:
		ok = mount_full(t) == 0;
		break;
	case MODE_FILE:
		ok = rename(t->cache, t->aside) == 0;
		if (ok)
			write_file(t->cache, "not a folder\n", 13);
		break;
	case MODE_VANISH:
		ok = rename(t->cache, t->aside) == 0;
		break;
	case MODE_NORMAL:
		break;
	}
	if (!ok && mode != MODE_NORMAL)
		t->st.setup_errors++;
	if (ok) {
		t->mode = mode;
		t->st.faults[mode == MODE_READ_ONLY ? FAULT_READ_ONLY : mode == MODE_FULL ? FAULT_FULL
			     : mode == MODE_FILE ? FAULT_FILE : FAULT_VANISH]++;
	}
	procs_cont_all(t);
}

/* Only while no worker runs. */
void
mode_undo(struct torture *t)
{
	struct folder_scan scan;
	char gone[PATH_SIZE + 32], tag[32];

	switch (t->mode) {
	case MODE_READ_ONLY:
		if (umount(t->cache) != 0) {
			printf("torture: cannot unmount %s: %s\n", t->cache, strerror(errno));
			t->st.setup_errors++;
		}
		break;
	case MODE_FULL:
		snprintf(tag, sizeof(tag), "full-%d", t->round);
		scan_folder(t->cache, &scan, t, tag);
		if (t->full_wd >= 0)
			inotify_rm_watch(t->inotify_fd, t->full_wd);
		t->full_wd = -1;
		if (umount(t->cache) != 0) {
			printf("torture: cannot unmount %s: %s\n", t->cache, strerror(errno));
			t->st.setup_errors++;
		}
		break;
	case MODE_FILE:
		unlink(t->cache);
		rename(t->aside, t->cache);
		break;
	case MODE_VANISH:
		/* A store recreated it: count what it left, then drop it. */
		snprintf(tag, sizeof(tag), "vanished-%u", t->vanished);
		if (scan_folder(t->cache, &scan, t, tag) == 0) {
			snprintf(gone, sizeof(gone), "%s/vanished-%u", t->root, t->vanished++);
			if (rename(t->cache, gone) == 0)
				rm_rf(gone);
		}
		rename(t->aside, t->cache);
		break;
	case MODE_NORMAL:
		break;
	}
	t->mode = MODE_NORMAL;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

int
rm_rf(const char *path)
{
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}
