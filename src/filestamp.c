/* File stamps (filestamp.h). */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "filestamp.h"

/* A file whose mtime is this close to the moment it was stamped may have
 * been written again within the same timestamp tick (coarse kernel clocks,
 * 2 s on FAT): its stamp proves nothing until a later build stamps it
 * again. The idea is git's "racy" index entries. The ctime must match too:
 * setting the mtime back after an edit changes it. */
#define RACY_MARGIN_NS INT64_C(2000000000)

static int64_t
realtime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void
stamp_of(const char *path, struct file_stamp *s)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (stat(path, &st) != 0)
		return;
	s->exists = true;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->size = st.st_size;
	s->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	s->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
}

void
file_stamps_add(struct file_stamps *stamps, const char *path)
{
	struct file_stamp s;

	if (stamps->failed)
		return;
	if (stamps->count == 0)
		stamps->taken_ns = realtime_ns();
	if (stamps->count == stamps->capacity) {
		size_t cap = stamps->capacity ? stamps->capacity * 2 : 4;
		struct file_stamp *items = realloc(stamps->items, cap * sizeof(*items));

		if (!items) {
			stamps->failed = true;
			return;
		}
		stamps->items = items;
		stamps->capacity = cap;
	}
	stamp_of(path, &s);
	s.path = strdup(path);
	if (!s.path) {
		stamps->failed = true;
		return;
	}
	stamps->items[stamps->count++] = s;
}

bool
file_stamps_unchanged(const struct file_stamps *stamps)
{
	if (stamps->failed)
		return false;
	for (size_t i = 0; i < stamps->count; i++) {
		const struct file_stamp *was = &stamps->items[i];
		struct file_stamp now;

		stamp_of(was->path, &now);
		if (now.exists != was->exists)
			return false;
		if (!now.exists)
			continue;
		if (now.dev != was->dev || now.ino != was->ino || now.size != was->size ||
		    now.mtime_ns != was->mtime_ns || now.ctime_ns != was->ctime_ns)
			return false;
		if (was->mtime_ns > stamps->taken_ns - RACY_MARGIN_NS)
			return false;
	}
	return true;
}

void
file_stamps_free(struct file_stamps *stamps)
{
	for (size_t i = 0; i < stamps->count; i++)
		free(stamps->items[i].path);
	free(stamps->items);
	memset(stamps, 0, sizeof(*stamps));
}
