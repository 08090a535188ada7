/* The disk cache's folder: which one diskcache_open() takes, creating it,
 * and the names of the files in it, as src/diskcache.c (entries) and
 * src/diskcache_evict.c (the size bound) need them. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_DISKCACHE_FOLDER_H
#define CLWARP_DISKCACHE_FOLDER_H

#include <stdint.h>

#include "diskcache.h"

#define DISKCACHE_KIND_MAX 15
/* 64 hex digits, '.', kind, NUL */
#define DISKCACHE_ENTRY_NAME_SIZE (64 + 1 + DISKCACHE_KIND_MAX + 1)
/* Stores write a temp file of this prefix before renaming it. */
#define DISKCACHE_TMP_PREFIX ".tmp-"

/* Whether @p name is an entry's name: 64 lowercase hex digits, '.', a
 * valid kind. Only such files are counted and evicted, so a cache folder
 * pointed at a shared place never loses foreign files. */
int diskcache_is_entry_name(const char *name);

/* The name of the entry for @p key and @p kind (a valid kind). */
void diskcache_entry_name(char name[DISKCACHE_ENTRY_NAME_SIZE], const uint8_t key[32],
                          const char *kind);

/* "dir/name", malloc'd; NULL when out of memory. */
char *diskcache_path(const char *dir, const char *name);

/* mkdir -p with mode 0700 for the folders it creates; path is modified
 * temporarily. Returns 0, or -1 with errno set. */
int diskcache_mkdir_p(char *path);

#endif
