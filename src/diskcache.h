/* On-disk cache of program binaries and probe verdicts, one file per entry. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_DISKCACHE_H
#define CLWARP_DISKCACHE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "clwarp/clwarp.h"
#include "diskcache_trust.h"
#include "log.h"

/*
 * Entries live directly in the folder as <64 hex digits of key>.<kind>.
 * Each file, all integers little-endian:
 *
 *   offset  size  field
 *        0     8  magic "CLWARPC\x01"
 *        8     4  format version, 1
 *       12     4  reserved, 0 (anything else is rejected)
 *       16    32  key (must equal the key in the name)
 *       48     8  payload size in bytes, at most DISKCACHE_MAX_PAYLOAD
 *       56    32  SHA-256 of the payload
 *       88     n  payload; the file ends right after it
 *
 * Stores write a ".tmp-XXXXXX" file in the same folder and rename() it over
 * the entry, so readers see either the old file or the whole new one.
 *
 * Thread safety: after diskcache_open() returns, load, store and remove may
 * run concurrently from any number of threads and processes on one folder.
 * open and close must not race with anything else on the same struct.
 */

#define DISKCACHE_HEADER_SIZE 88
#define DISKCACHE_MAX_PAYLOAD (UINT64_C(1) << 30)

struct diskcache {
	char *dir;              /* owned; NULL when the disk cache is off */
	uint64_t max_bytes;     /* bound on the sum of the entry files' sizes */
	const struct clwarp_logger *logger; /* borrowed; may be NULL */
	atomic_int io_warned;   /* a store failure was reported: say it once */
	struct diskcache_trust trust; /* whose folders and entries are used */
};

/*
 * Resolve and prepare the cache folder. The first of these is used:
 * explicit_dir; $CLWARP_CACHE_DIR; $XDG_CACHE_HOME/clwarp (only when
 * absolute, as the XDG spec asks); $HOME/.cache/clwarp. NULL or empty
 * strings count as unset. With use_env 0 the environment is not read, so
 * with explicit_dir NULL the disk cache is off (no warning).
 *
 * Missing folders are created with mode 0700 (mkdir -p). The path is then
 * resolved (realpath: relative paths and symbolic links), and the resolved
 * folder is what the checks see and every later access uses, so a later
 * chdir() or a re-pointed link does not move the cache.
 *
 * The folder must be trusted (diskcache_trust_folder(): the user's own, out
 * of others' reach, parents too) and writable (a temp file is created and
 * removed). explicit_group, else $CLWARP_CACHE_GROUP (with use_env), names a
 * group that shares the folder (docs/cache.md, "Trust"); NULL or "" means
 * none.
 *
 * max_bytes: 0 means CLWARP_CACHE_DEFAULT_MAX_BYTES, UINT64_MAX no bound.
 * logger is borrowed and must outlive the cache; NULL drops messages.
 *
 * Any failure to find, create, trust or write the folder, or an unknown
 * group or one the user is not in, logs one warning naming the folder and
 * the reason, leaves cache->dir NULL (memory-only) and still returns
 * CLWARP_OK. Only CLWARP_ERROR_OUT_OF_MEMORY is returned as an error, also
 * with cache->dir NULL. cache must not be NULL; its previous contents are
 * overwritten, not freed. Always pair with diskcache_close().
 */
clwarp_status diskcache_open(struct diskcache *cache, const char *explicit_dir,
                             const char *explicit_group, int use_env, uint64_t max_bytes,
                             const struct clwarp_logger *logger);

/* Free cache->dir and set it to NULL; the files stay. NULL cache is fine;
 * calling it twice is fine. */
void diskcache_close(struct diskcache *cache);

/* @return 1 if @p kind is a valid entry kind: 1 to 15 characters of a-z,
 * 0-9 and '_'. Every function below rejects other kinds. */
int diskcache_kind_valid(const char *kind);

/*
 * Look up the entry for key (32 bytes: the SHA-256 of everything that
 * determines the payload) and kind (e.g. "bin", "probe").
 *
 * On a hit returns 1, sets *payload to a malloc'd copy the caller frees
 * (never NULL, even for a 0-byte payload) and *size to its length, and sets
 * the file's mtime to now so eviction is least-recently-used.
 *
 * Otherwise returns 0 and leaves *payload NULL and *size 0: the cache is
 * off, there is no such file, it cannot be read, memory ran out, or the
 * file is damaged. A damaged file (truncated or too long, bad magic,
 * version or reserved field, a key differing from the one asked, a payload
 * size over DISKCACHE_MAX_PAYLOAD, a checksum mismatch) is deleted and the
 * reason logged at debug level. Any file content is safe to read.
 *
 * An untrusted file (a symbolic link, or one diskcache_trust_entry()
 * refuses: another user's, or writable by others) is a miss with a warning
 * naming it, and is left in place: the check is made on the opened file
 * (O_NOFOLLOW, fstat), so a swap after it changes nothing.
 * cache, key, payload and size must not be NULL.
 */
int diskcache_load(const struct diskcache *cache, const uint8_t key[32], const char *kind,
                   void **payload, size_t *size);

/*
 * Store payload (size bytes; payload may be NULL when size is 0) as the
 * entry for key and kind, atomically replacing any existing one.
 * Concurrent stores of one key from several threads or processes all
 * succeed; the last rename wins.
 *
 * Then enforce max_bytes: when the entry files together exceed it, the
 * least recently used ones (oldest mtime first) are deleted until they fit;
 * the entry just written is never among them. The same scan deletes
 * ".tmp-*" files older than DISKCACHE_STALE_TMP_SECONDS (diskcache_evict.h).
 * Files whose names are not entries or temp files, and untrusted ones, are
 * never touched or counted. With a shared group, the file is given that
 * group and mode 0640.
 *
 * @return CLWARP_OK when stored, and also when the cache is off (nothing
 *   done);
 *   CLWARP_ERROR_TOO_LARGE, nothing written, when size exceeds
 *   DISKCACHE_MAX_PAYLOAD or the entry file alone would exceed max_bytes
 *   (keeping it would evict everything else and still break the bound);
 *   CLWARP_ERROR_INVALID_ARGUMENT for an invalid kind;
 *   CLWARP_ERROR_OUT_OF_MEMORY when building a path fails (nothing written);
 *   CLWARP_ERROR_IO when writing failed: the temp file is removed and a
 *   warning is logged for the first such failure of this cache only.
 * In every case the caller can carry on memory-only. Takes a non-const
 * cache because it sets the warned-once flag (atomically).
 */
clwarp_status diskcache_store(struct diskcache *cache, const uint8_t key[32], const char *kind,
                              const void *payload, size_t size);

/* Delete the entry for key and kind if there is one (e.g. the driver
 * rejected a cached binary) and it is trusted. A missing entry or an off
 * cache is fine. */
void diskcache_remove(const struct diskcache *cache, const uint8_t key[32], const char *kind);

#endif
