/* On-disk cache of program binaries, its entries: the file format,
 * verified loads, atomic stores (the folder: diskcache_folder.c; the
 * LRU bound: diskcache_evict.c). */
/* SPDX-License-Identifier: MIT */
#include "diskcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diskcache_evict.h"
#include "diskcache_folder.h"
#include "sha256.h"

static const uint8_t magic[8] = { 'C', 'L', 'W', 'A', 'R', 'P', 'C', 0x01 };
enum { FORMAT_VERSION = 1 };

static void
put_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void
put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t
get_u32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t
get_u64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Reads until n bytes or end of file; returns the count, or -1 on error. */
static ssize_t
read_full(int fd, void *buf, size_t n)
{
	uint8_t *p = buf;
	size_t done = 0;

	while (done < n) {
		ssize_t r = read(fd, p + done, n - done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

static int
write_full(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}


/* Deletes a damaged entry, unless a writer has meanwhile renamed a fresh
 * file over it (then the name no longer points at the inode we read). */
static void
drop_entry(const struct diskcache *cache, const char *path, int fd, const char *reason)
{
	struct stat a, b;

	log_debug(cache->logger, "disk cache: dropping %s: %s", path, reason);
	if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && (a.st_dev != b.st_dev || a.st_ino != b.st_ino))
		return;
	unlink(path);
}

/* What is wrong with an entry's header, in a file of @p file_size bytes
 * (NULL: nothing); *length is the payload's size it gives. */
static const char *
header_fault(const uint8_t *header, const uint8_t key[32], uint64_t file_size, uint64_t *length)
{
	if (memcmp(header, magic, sizeof(magic)) != 0)
		return "bad magic";
	if (get_u32(header + 8) != FORMAT_VERSION || get_u32(header + 12) != 0)
		return "unknown format version or reserved field";
	if (memcmp(header + 16, key, 32) != 0)
		return "key differs from its name";
	*length = get_u64(header + 48);
	if (*length > DISKCACHE_MAX_PAYLOAD)
		return "payload size out of range";
	if (file_size != DISKCACHE_HEADER_SIZE + *length)
		return file_size < DISKCACHE_HEADER_SIZE + *length ? "truncated payload" : "trailing bytes";
	return NULL;
}

/* Read and check the entry open on @p fd (@p st its fstat): its payload in
 * *data (the caller frees it), *length bytes. False where that fails, with
 * *bad saying why where the entry itself is at fault. */
static bool
read_entry(const struct diskcache *cache, int fd, const char *path, const struct stat *st,
           const uint8_t key[32], uint8_t **data, uint64_t *length, const char **bad)
{
	uint8_t header[DISKCACHE_HEADER_SIZE];
	uint8_t digest[SHA256_DIGEST_SIZE];
	ssize_t got = read_full(fd, header, sizeof(header));

	if (got < 0) {
		log_debug(cache->logger, "disk cache: cannot read %s: %s", path, strerror(errno));
		return false;
	}
	if ((size_t)got < sizeof(header)) {
		*bad = "truncated header";
		return false;
	}
	if ((*bad = header_fault(header, key, (uint64_t)st->st_size, length)))
		return false;

	*data = malloc(*length ? (size_t)*length : 1);
	if (!*data) {
		log_debug(cache->logger, "disk cache: out of memory reading %s", path);
		return false;
	}
	got = read_full(fd, *data, (size_t)*length);
	if (got < 0) {
		log_debug(cache->logger, "disk cache: cannot read %s: %s", path, strerror(errno));
		return false;
	}
	if ((uint64_t)got != *length) {
		*bad = "truncated payload";
		return false;
	}
	sha256_buffer(*data, (size_t)*length, digest);
	if (memcmp(digest, header + 56, sizeof(digest)) != 0) {
		*bad = "payload checksum mismatch";
		return false;
	}
	return true;
}

int
diskcache_load(const struct diskcache *cache, const uint8_t key[32], const char *kind,
               void **payload, size_t *size)
{
	char name[DISKCACHE_ENTRY_NAME_SIZE];
	struct stat st;
	char *path;
	uint8_t *data = NULL;
	uint64_t length = 0;
	const char *bad = NULL, *untrusted;
	int fd, hit = 0;

	*payload = NULL;
	*size = 0;
	if (!cache->dir || !diskcache_kind_valid(kind))
		return 0;
	diskcache_entry_name(name, key, kind);
	path = diskcache_path(cache->dir, name);
	if (!path)
		return 0;

	/* O_NONBLOCK: a named pipe in place of the entry would otherwise block
	 * this open until some writer came along; regular files ignore it.
	 * O_NOFOLLOW: a link could lead to a file that another user controls. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0) {
		if (errno == ELOOP)
			log_warning(cache->logger, "disk cache: ignoring %s: it is a symbolic link", path);
		else if (errno != ENOENT)
			log_debug(cache->logger, "disk cache: cannot open %s: %s", path, strerror(errno));
		free(path);
		return 0;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		log_debug(cache->logger, "disk cache: %s is not a readable regular file", path);
		goto out;
	}
	/* The opened file is what gets read, so checking it (not the name)
	 * leaves no window for a swap. Not ours to delete either. */
	if ((untrusted = diskcache_trust_entry(&cache->trust, &st))) {
		log_warning(cache->logger, "disk cache: ignoring %s: %s (uid %lu, mode %04o)", path,
		            untrusted, (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777));
		goto out;
	}

	if (!read_entry(cache, fd, path, &st, key, &data, &length, &bad))
		goto out;

	/* A hit makes the entry the most recently used; failing that only
	 * makes it an earlier eviction candidate. */
	futimens(fd, NULL);
	*payload = data;
	*size = (size_t)length;
	data = NULL;
	hit = 1;
out:
	if (bad)
		drop_entry(cache, path, fd, bad);
	free(data);
	close(fd);
	free(path);
	return hit;
}


static void
warn_store_failure(struct diskcache *cache, const char *what, const char *path, int err)
{
	/* One warning per cache: a full disk would otherwise warn on every build. */
	if (atomic_exchange(&cache->io_warned, 1) == 0)
		log_warning(cache->logger,
		            "disk cache: %s %s: %s; carrying on without storing binaries "
		            "(further failures are not reported)",
		            what, path, strerror(err));
	else
		log_debug(cache->logger, "disk cache: %s %s: %s", what, path, strerror(err));
}

/* A new temporary file in the cache folder, open on *fd, its path in
 * *tmp (the caller frees it). */
static clwarp_status
create_temp(struct diskcache *cache, char **tmp, int *fd)
{
	int err;

	*tmp = diskcache_path(cache->dir, DISKCACHE_TMP_PREFIX "XXXXXX");
	if (!*tmp)
		return CLWARP_ERROR_OUT_OF_MEMORY;
	*fd = mkstemp(*tmp);
	if (*fd < 0 && errno == ENOENT) {
		/* Someone deleted the whole folder (rm -rf ~/.cache): recreate it. */
		if (diskcache_mkdir_p(cache->dir) == 0) {
			free(*tmp);
			*tmp = diskcache_path(cache->dir, DISKCACHE_TMP_PREFIX "XXXXXX");
			if (!*tmp)
				return CLWARP_ERROR_OUT_OF_MEMORY;
			*fd = mkstemp(*tmp);
		}
	}
	if (*fd < 0) {
		err = errno;
		warn_store_failure(cache, "cannot create a file in", cache->dir, err);
		free(*tmp);
		*tmp = NULL;
		return CLWARP_ERROR_IO;
	}
	return CLWARP_OK;
}

clwarp_status
diskcache_store(struct diskcache *cache, const uint8_t key[32], const char *kind,
                const void *payload, size_t size)
{
	char name[DISKCACHE_ENTRY_NAME_SIZE];
	uint8_t header[DISKCACHE_HEADER_SIZE];
	char *path = NULL, *tmp = NULL;
	const char *what;
	int fd = -1, err, renaming = 0;
	clwarp_status status;

	if (!cache->dir)
		return CLWARP_OK;
	if (!diskcache_kind_valid(kind))
		return CLWARP_ERROR_INVALID_ARGUMENT;
	/* The size check first keeps the sum below from overflowing. */
	if ((uint64_t)size > DISKCACHE_MAX_PAYLOAD ||
	    DISKCACHE_HEADER_SIZE + (uint64_t)size > cache->max_bytes) {
		log_debug(cache->logger, "disk cache: not storing a %zu-byte %s entry: over the bound",
		          size, kind);
		return CLWARP_ERROR_TOO_LARGE;
	}

	memcpy(header, magic, sizeof(magic));
	put_u32(header + 8, FORMAT_VERSION);
	put_u32(header + 12, 0);
	memcpy(header + 16, key, 32);
	put_u64(header + 48, (uint64_t)size);
	sha256_buffer(payload, size, header + 56);

	diskcache_entry_name(name, key, kind);
	path = diskcache_path(cache->dir, name);
	if (!path)
		return CLWARP_ERROR_OUT_OF_MEMORY;
	status = create_temp(cache, &tmp, &fd);
	if (status != CLWARP_OK) {
		free(path);
		return status;
	}

	/* Members of a shared group read each other's entries; the group,
	 * not the writer's own one, is what they trust. */
	what = "cannot give the shared group a file in";
	if (cache->trust.shared &&
	    (fchown(fd, (uid_t)-1, cache->trust.gid) != 0 || fchmod(fd, 0640) != 0))
		goto fail;
	what = "cannot write a file in";
	if (write_full(fd, header, sizeof(header)) != 0 || write_full(fd, payload, size) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	what = "cannot rename a file to";
	renaming = 1;
	if (rename(tmp, path) != 0)
		goto fail;

	log_debug(cache->logger, "disk cache: stored %s (%zu bytes)", path, size);
	free(tmp);
	free(path);
	diskcache_evict(cache, name);
	return CLWARP_OK;

fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	warn_store_failure(cache, what, renaming ? path : cache->dir, err);
	free(tmp);
	free(path);
	return CLWARP_ERROR_IO;
}

void
diskcache_remove(const struct diskcache *cache, const uint8_t key[32], const char *kind)
{
	char name[DISKCACHE_ENTRY_NAME_SIZE];
	struct stat st;
	char *path;

	if (!cache || !cache->dir || !diskcache_kind_valid(kind))
		return;
	diskcache_entry_name(name, key, kind);
	path = diskcache_path(cache->dir, name);
	if (!path)
		return;
	/* Best effort against deleting what is not ours: the name can change
	 * between lstat and unlink, but only by someone the folder trusts. */
	if (lstat(path, &st) == 0 && diskcache_trust_entry(&cache->trust, &st))
		log_debug(cache->logger, "disk cache: not removing untrusted %s", path);
	else if (unlink(path) == 0)
		log_debug(cache->logger, "disk cache: removed %s", path);
	else if (errno != ENOENT)
		log_debug(cache->logger, "disk cache: cannot remove %s: %s", path, strerror(errno));
	free(path);
}
