/* File stamps: what stat() said of every file a build read or looked for, so
 * a later build of the same request can tell, without reading anything,
 * that none of them changed. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_FILESTAMP_H
#define CLWARP_FILESTAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct file_stamp {
	char *path;
	bool exists;         /* false: looked for (an include search) and not there */
	dev_t dev;
	ino_t ino;
	off_t size;
	int64_t mtime_ns, ctime_ns;
};

struct file_stamps {
	struct file_stamp *items;
	size_t count, capacity;
	int64_t taken_ns;    /* the clock before the first stamp was taken */
	bool failed;         /* out of memory: the set is incomplete and never matches */
};

/* Stat `path` now and add its stamp. Take it before reading the file: a
 * change after the stamp then shows as a changed stamp later. */
void file_stamps_add(struct file_stamps *stamps, const char *path);

/* Every file as stamped, none changed within the file system's timestamp
 * granularity of the moment it was stamped (where an edit could keep the
 * same mtime), and the set complete. */
bool file_stamps_unchanged(const struct file_stamps *stamps);

void file_stamps_free(struct file_stamps *stamps);

#endif
