/* The disk cache's size bound (diskcache_evict.h): least recently used
 * entries go first. */
/* SPDX-License-Identifier: MIT */
#include "diskcache_evict.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diskcache_folder.h"

struct scan_entry {
	char name[DISKCACHE_ENTRY_NAME_SIZE];
	uint64_t bytes;
	struct timespec mtime;
};

static int
scan_entry_cmp(const void *pa, const void *pb)
{
	const struct scan_entry *a = pa, *b = pb;

	if (a->mtime.tv_sec != b->mtime.tv_sec)
		return a->mtime.tv_sec < b->mtime.tv_sec ? -1 : 1;
	if (a->mtime.tv_nsec != b->mtime.tv_nsec)
		return a->mtime.tv_nsec < b->mtime.tv_nsec ? -1 : 1;
	return strcmp(a->name, b->name);
}

void
diskcache_evict(const struct diskcache *cache, const char *keep)
{
	struct scan_entry *list = NULL;
	size_t count = 0, cap = 0;
	uint64_t total = 0;
	time_t now = time(NULL);
	struct dirent *de;
	DIR *d;
	int dfd;

	d = opendir(cache->dir);
	if (!d) {
		log_debug(cache->logger, "disk cache: cannot list %s: %s", cache->dir, strerror(errno));
		return;
	}
	dfd = dirfd(d);
	while ((de = readdir(d))) {
		struct stat st;
		int entry = diskcache_is_entry_name(de->d_name);

		if (!entry &&
		    strncmp(de->d_name, DISKCACHE_TMP_PREFIX, strlen(DISKCACHE_TMP_PREFIX)) != 0)
			continue;
		/* Another user's file is neither counted nor deleted: not ours. */
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    diskcache_trust_entry(&cache->trust, &st))
			continue;
		if (!entry) {
			/* A writer that died between mkstemp and rename. */
			if (now - st.st_mtim.tv_sec > DISKCACHE_STALE_TMP_SECONDS)
				unlinkat(dfd, de->d_name, 0);
			continue;
		}
		total += (uint64_t)st.st_size;
		if (strcmp(de->d_name, keep) == 0)
			continue;
		if (count == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct scan_entry *n = realloc(list, ncap * sizeof(*n));

			if (!n) {
				log_debug(cache->logger, "disk cache: out of memory listing %s", cache->dir);
				goto out;
			}
			list = n;
			cap = ncap;
		}
		memcpy(list[count].name, de->d_name, strlen(de->d_name) + 1);
		list[count].bytes = (uint64_t)st.st_size;
		list[count].mtime = st.st_mtim;
		count++;
	}
	if (total <= cache->max_bytes)
		goto out;

	qsort(list, count, sizeof(*list), scan_entry_cmp);
	for (size_t i = 0; i < count && total > cache->max_bytes; i++) {
		/* ENOENT: another process evicted it first; it is gone either way. */
		if (unlinkat(dfd, list[i].name, 0) != 0 && errno != ENOENT) {
			log_debug(cache->logger, "disk cache: cannot evict %s/%s: %s", cache->dir,
			          list[i].name, strerror(errno));
			continue;
		}
		log_debug(cache->logger, "disk cache: evicted %s", list[i].name);
		total -= list[i].bytes;
	}
out:
	free(list);
	closedir(d);
}
