/* On-disk cache of program binaries: atomic stores, verified loads, LRU bound. */
/* SPDX-License-Identifier: MIT */
#include "diskcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sha256.h"

#define KIND_MAX 15
/* 64 hex digits, '.', kind, NUL */
#define ENTRY_NAME_SIZE (64 + 1 + KIND_MAX + 1)
#define TMP_PREFIX ".tmp-"

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

int
diskcache_kind_valid(const char *kind)
{
	size_t n = 0;

	if (!kind)
		return 0;
	for (; kind[n]; n++) {
		char c = kind[n];

		if (n >= KIND_MAX || !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return n > 0;
}

static int
is_hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* Only files named like our entries are counted and evicted, so a cache
 * folder pointed at a shared place never loses foreign files. */
static int
is_entry_name(const char *name)
{
	for (int i = 0; i < 64; i++) {
		if (!is_hex_digit(name[i]))
			return 0;
	}
	return name[64] == '.' && diskcache_kind_valid(name + 65);
}

static void
entry_name(char name[ENTRY_NAME_SIZE], const uint8_t key[32], const char *kind)
{
	char hex[SHA256_HEX_SIZE];

	sha256_hex(key, hex);
	snprintf(name, ENTRY_NAME_SIZE, "%s.%s", hex, kind);
}

static char *
path_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *path = malloc(a + 1 + b + 1);

	if (!path)
		return NULL;
	memcpy(path, dir, a);
	path[a] = '/';
	memcpy(path + a + 1, name, b + 1);
	return path;
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

/* mkdir -p with mode 0700 for the folders it creates; path is modified
 * temporarily. Returns 0, or -1 with errno set. */
static int
mkdir_p(char *path)
{
	struct stat st;

	for (char *p = path + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;

		*p = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			*p = saved;
			return -1;
		}
		*p = saved;
		if (saved == '\0')
			break;
	}
	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

static int
check_writable(const char *dir)
{
	char *tmp = path_join(dir, TMP_PREFIX "XXXXXX");
	int fd, saved;

	if (!tmp) {
		errno = ENOMEM;
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		saved = errno;
		free(tmp);
		errno = saved;
		return -1;
	}
	close(fd);
	unlink(tmp);
	free(tmp);
	return 0;
}

static const char *
env_value(const char *name)
{
	const char *v = getenv(name);

	return v && v[0] ? v : NULL;
}

/* Picks the folder by precedence; *dir is malloc'd or NULL (off). Returns
 * 0, or -1 when out of memory. */
static int
resolve_dir(const char *explicit_dir, int use_env, char **dir, const char **why_none)
{
	const char *v;

	*dir = NULL;
	*why_none = NULL;
	if (explicit_dir && explicit_dir[0]) {
		*dir = strdup(explicit_dir);
		return *dir ? 0 : -1;
	}
	if (!use_env) {
		*why_none = "no folder given and the environment is ignored";
		return 0;
	}
	if ((v = env_value("CLWARP_CACHE_DIR"))) {
		*dir = strdup(v);
		return *dir ? 0 : -1;
	}
	/* XDG: a relative value is invalid and must be ignored. */
	if ((v = env_value("XDG_CACHE_HOME")) && v[0] == '/') {
		*dir = path_join(v, "clwarp");
		return *dir ? 0 : -1;
	}
	if ((v = env_value("HOME"))) {
		*dir = path_join(v, ".cache/clwarp");
		return *dir ? 0 : -1;
	}
	*why_none = "neither CLWARP_CACHE_DIR, XDG_CACHE_HOME nor HOME is set";
	return 0;
}

/* Prefixes the current folder; returns NULL with errno set on failure. */
static char *
absolute_path(const char *rel)
{
	size_t cap = 256;

	for (;;) {
		char *cwd = malloc(cap), *abs;

		if (!cwd) {
			errno = ENOMEM;
			return NULL;
		}
		if (getcwd(cwd, cap)) {
			/* "." would otherwise leave a "/." tail in every path. */
			abs = strcmp(rel, ".") == 0 ? strdup(cwd) : path_join(cwd, rel);
			free(cwd);
			if (!abs)
				errno = ENOMEM;
			return abs;
		}
		free(cwd);
		if (errno != ERANGE || cap > (size_t)1 << 20)
			return NULL;
		cap *= 2;
	}
}

clwarp_status
diskcache_open(struct diskcache *cache, const char *explicit_dir, int use_env,
               uint64_t max_bytes, const struct clwarp_logger *logger)
{
	const char *why_none;
	char *dir;
	size_t len;

	cache->dir = NULL;
	cache->max_bytes = max_bytes ? max_bytes : CLWARP_CACHE_DEFAULT_MAX_BYTES;
	cache->logger = logger;
	atomic_init(&cache->io_warned, 0);

	if (resolve_dir(explicit_dir, use_env, &dir, &why_none) != 0)
		return CLWARP_ERROR_OUT_OF_MEMORY;
	if (!dir) {
		/* Turned off on purpose is not worth a warning; a missing HOME is. */
		if (use_env)
			log_warning(logger, "disk cache off: %s", why_none);
		else
			log_debug(logger, "disk cache off: %s", why_none);
		return CLWARP_OK;
	}
	/* Trailing slashes would only make the names in messages uglier. */
	len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';

	if (mkdir_p(dir) != 0 || check_writable(dir) != 0) {
		int err = errno;

		if (err == ENOMEM) {
			free(dir);
			return CLWARP_ERROR_OUT_OF_MEMORY;
		}
		/* A name of thousands of characters is cut, not the reason. */
		log_warning(logger, "disk cache off: cannot use folder %.1000s%s: %s", dir,
			    len > 1000 ? "..." : "", strerror(err));
		free(dir);
		return CLWARP_OK;
	}
	if (dir[0] != '/') {
		char *abs = absolute_path(dir);

		if (!abs) {
			int err = errno;

			if (err == ENOMEM) {
				free(dir);
				return CLWARP_ERROR_OUT_OF_MEMORY;
			}
			log_warning(logger, "disk cache off: cannot resolve folder %.1000s%s: %s", dir,
			            len > 1000 ? "..." : "", strerror(err));
			free(dir);
			return CLWARP_OK;
		}
		free(dir);
		dir = abs;
	}
	cache->dir = dir;
	log_debug(logger, "disk cache in %s", dir);
	return CLWARP_OK;
}

void
diskcache_close(struct diskcache *cache)
{
	if (!cache)
		return;
	free(cache->dir);
	cache->dir = NULL;
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

int
diskcache_load(const struct diskcache *cache, const uint8_t key[32], const char *kind,
               void **payload, size_t *size)
{
	char name[ENTRY_NAME_SIZE];
	uint8_t header[DISKCACHE_HEADER_SIZE];
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct stat st;
	char *path;
	uint8_t *data = NULL;
	uint64_t length;
	const char *bad = NULL;
	ssize_t got;
	int fd, hit = 0;

	*payload = NULL;
	*size = 0;
	if (!cache->dir || !diskcache_kind_valid(kind))
		return 0;
	entry_name(name, key, kind);
	path = path_join(cache->dir, name);
	if (!path)
		return 0;

	/* O_NONBLOCK: a named pipe in place of the entry would otherwise block
	 * this open until some writer came along; regular files ignore it. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno != ENOENT)
			log_debug(cache->logger, "disk cache: cannot open %s: %s", path, strerror(errno));
		free(path);
		return 0;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		log_debug(cache->logger, "disk cache: %s is not a readable regular file", path);
		goto out;
	}

	got = read_full(fd, header, sizeof(header));
	if (got < 0) {
		log_debug(cache->logger, "disk cache: cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	if ((size_t)got < sizeof(header)) {
		bad = "truncated header";
		goto out;
	}
	if (memcmp(header, magic, sizeof(magic)) != 0) {
		bad = "bad magic";
		goto out;
	}
	if (get_u32(header + 8) != FORMAT_VERSION || get_u32(header + 12) != 0) {
		bad = "unknown format version or reserved field";
		goto out;
	}
	if (memcmp(header + 16, key, 32) != 0) {
		bad = "key differs from its name";
		goto out;
	}
	length = get_u64(header + 48);
	if (length > DISKCACHE_MAX_PAYLOAD) {
		bad = "payload size out of range";
		goto out;
	}
	if ((uint64_t)st.st_size != DISKCACHE_HEADER_SIZE + length) {
		bad = (uint64_t)st.st_size < DISKCACHE_HEADER_SIZE + length ? "truncated payload"
		                                                              : "trailing bytes";
		goto out;
	}

	data = malloc(length ? (size_t)length : 1);
	if (!data) {
		log_debug(cache->logger, "disk cache: out of memory reading %s", path);
		goto out;
	}
	got = read_full(fd, data, (size_t)length);
	if (got < 0) {
		log_debug(cache->logger, "disk cache: cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	if ((uint64_t)got != length) {
		bad = "truncated payload";
		goto out;
	}
	sha256_buffer(data, (size_t)length, digest);
	if (memcmp(digest, header + 56, sizeof(digest)) != 0) {
		bad = "payload checksum mismatch";
		goto out;
	}

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

struct scan_entry {
	char name[ENTRY_NAME_SIZE];
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

/* Deletes stale temp files and, while the entries exceed max_bytes, the
 * least recently used ones other than keep. Failures only leave more on
 * disk, so they are logged at debug level and otherwise ignored. */
static void
enforce_bound(const struct diskcache *cache, const char *keep)
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
		int entry = is_entry_name(de->d_name);

		if (!entry && strncmp(de->d_name, TMP_PREFIX, strlen(TMP_PREFIX)) != 0)
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
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

clwarp_status
diskcache_store(struct diskcache *cache, const uint8_t key[32], const char *kind,
                const void *payload, size_t size)
{
	char name[ENTRY_NAME_SIZE];
	uint8_t header[DISKCACHE_HEADER_SIZE];
	char *path = NULL, *tmp = NULL;
	const char *what;
	int fd = -1, err, renaming = 0;

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

	entry_name(name, key, kind);
	path = path_join(cache->dir, name);
	tmp = path_join(cache->dir, TMP_PREFIX "XXXXXX");
	if (!path || !tmp) {
		free(path);
		free(tmp);
		return CLWARP_ERROR_OUT_OF_MEMORY;
	}

	fd = mkstemp(tmp);
	if (fd < 0 && errno == ENOENT) {
		/* Someone deleted the whole folder (rm -rf ~/.cache): recreate it. */
		if (mkdir_p(cache->dir) == 0) {
			free(tmp);
			tmp = path_join(cache->dir, TMP_PREFIX "XXXXXX");
			if (!tmp) {
				free(path);
				return CLWARP_ERROR_OUT_OF_MEMORY;
			}
			fd = mkstemp(tmp);
		}
	}
	if (fd < 0) {
		err = errno;
		warn_store_failure(cache, "cannot create a file in", cache->dir, err);
		free(path);
		free(tmp);
		return CLWARP_ERROR_IO;
	}

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
	enforce_bound(cache, name);
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
	char name[ENTRY_NAME_SIZE];
	char *path;

	if (!cache || !cache->dir || !diskcache_kind_valid(kind))
		return;
	entry_name(name, key, kind);
	path = path_join(cache->dir, name);
	if (!path)
		return;
	if (unlink(path) == 0)
		log_debug(cache->logger, "disk cache: removed %s", path);
	else if (errno != ENOENT)
		log_debug(cache->logger, "disk cache: cannot remove %s: %s", path, strerror(errno));
	free(path);
}
