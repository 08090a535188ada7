/* Whom the disk cache trusts: the folder, its parents and each entry must be
 * out of other users' reach, since an entry is code the driver loads. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_DISKCACHE_TRUST_H
#define CLWARP_DISKCACHE_TRUST_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Trusted are the effective user and root; with a shared group
 * (CLWARP_CACHE_GROUP, docs/cache.md "Trust") also that group's members.
 */
struct diskcache_trust {
	uid_t uid;      /* geteuid() when the cache was opened */
	int shared;     /* a group shares the folder */
	gid_t gid;      /* that group, when shared */
};

/* Size of the reason buffers below; reasons longer than this are cut. */
#define DISKCACHE_WHY_SIZE 1200

/*
 * Fill @p trust for the effective user and, when @p group is not NULL, for
 * that group, which must exist and hold the user. Returns 0, or -1 with
 * the reason in @p why (trust->shared is then 0).
 */
int diskcache_trust_init(struct diskcache_trust *trust, const char *group,
                         char why[DISKCACHE_WHY_SIZE]);

/*
 * Whether the folder @p dir (absolute, no symbolic links, existing) may
 * hold the cache: owned by the user (shared: by a trusted user, and of
 * the group), not writable by group or others (shared: by others), and
 * every parent up to the first root-owned sticky one (/tmp) neither
 * writable by others nor owned by an untrusted user who can write it.
 * Returns 0, or -1 with the reason in @p why.
 */
int diskcache_trust_folder(const struct diskcache_trust *trust, const char *dir,
                           char why[DISKCACHE_WHY_SIZE]);

/*
 * Whether an entry whose opened file fstat() described as @p st may be
 * read: a regular file, not writable by others, and either of the shared
 * group or owned by the user and not writable by its group.
 * @return NULL when trusted, else the reason (a static string).
 */
const char *diskcache_trust_entry(const struct diskcache_trust *trust, const struct stat *st);

#endif
