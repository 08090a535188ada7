/* The disk cache's size bound, kept after every store. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_DISKCACHE_EVICT_H
#define CLWARP_DISKCACHE_EVICT_H

#include "diskcache.h"

/* Leftover temp files of crashed writers older than this are deleted. */
#define DISKCACHE_STALE_TMP_SECONDS 3600

/* Deletes stale temp files and, while the entries exceed max_bytes, the
 * least recently used ones other than @p keep (an entry's file name).
 * Failures only leave more on disk, so they are logged at debug level and
 * otherwise ignored. */
void diskcache_evict(const struct diskcache *cache, const char *keep);

#endif
