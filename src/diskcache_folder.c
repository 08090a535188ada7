/* The disk cache's folder (diskcache_folder.h): which one, made and checked
 * writable in diskcache_open(), and the names of the files in it. */
/* SPDX-License-Identifier: MIT */
#include "diskcache_folder.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diskcache_trust.h"
#include "sha256.h"

int
diskcache_kind_valid(const char *kind)
{
	size_t n = 0;

	if (!kind)
		return 0;
	for (; kind[n]; n++) {
		char c = kind[n];

		if (n >= DISKCACHE_KIND_MAX ||
		    !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return n > 0;
}

static int
is_hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

int
diskcache_is_entry_name(const char *name)
{
	for (int i = 0; i < 64; i++) {
		if (!is_hex_digit(name[i]))
			return 0;
	}
	return name[64] == '.' && diskcache_kind_valid(name + 65);
}

void
diskcache_entry_name(char name[DISKCACHE_ENTRY_NAME_SIZE], const uint8_t key[32],
                     const char *kind)
{
	char hex[SHA256_HEX_SIZE];

	sha256_hex(key, hex);
	snprintf(name, DISKCACHE_ENTRY_NAME_SIZE, "%s.%s", hex, kind);
}

char *
diskcache_path(const char *dir, const char *name)
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

int
diskcache_mkdir_p(char *path)
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
	char *tmp = diskcache_path(dir, DISKCACHE_TMP_PREFIX "XXXXXX");
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
		*dir = diskcache_path(v, "clwarp");
		return *dir ? 0 : -1;
	}
	if ((v = env_value("HOME"))) {
		*dir = diskcache_path(v, ".cache/clwarp");
		return *dir ? 0 : -1;
	}
	*why_none = "neither CLWARP_CACHE_DIR, XDG_CACHE_HOME nor HOME is set";
	return 0;
}

/* Logs why the folder is not used; "%.1000s": a name of thousands of
 * characters is cut, not the reason. */
static void
warn_off(const struct clwarp_logger *logger, const char *what, const char *dir, const char *why)
{
	log_warning(logger, "disk cache off: %s %.1000s%s: %s", what, dir,
	            strlen(dir) > 1000 ? "..." : "", why);
}

clwarp_status
diskcache_open(struct diskcache *cache, const char *explicit_dir, const char *explicit_group,
               int use_env, uint64_t max_bytes, const struct clwarp_logger *logger)
{
	char why[DISKCACHE_WHY_SIZE];
	const char *why_none, *group;
	char *dir, *real;
	size_t len;

	cache->dir = NULL;
	cache->max_bytes = max_bytes ? max_bytes : CLWARP_CACHE_DEFAULT_MAX_BYTES;
	cache->logger = logger;
	atomic_init(&cache->io_warned, 0);
	diskcache_trust_init(&cache->trust, NULL, why);

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
	group = explicit_group && explicit_group[0] ? explicit_group
	                                            : use_env ? env_value("CLWARP_CACHE_GROUP") : NULL;
	if (diskcache_trust_init(&cache->trust, group, why) != 0) {
		warn_off(logger, "shared folder", dir, why);
		free(dir);
		return CLWARP_OK;
	}
	/* Trailing slashes would only make the names in messages uglier. */
	len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';

	/*
	 * The checks and every later access use the resolved path: a symbolic
	 * link on the way cannot then be pointed elsewhere once checked.
	 */
	if (diskcache_mkdir_p(dir) != 0 || !(real = realpath(dir, NULL))) {
		int err = errno;

		if (err != ENOMEM)
			warn_off(logger, "cannot use folder", dir, strerror(err));
		free(dir);
		return err == ENOMEM ? CLWARP_ERROR_OUT_OF_MEMORY : CLWARP_OK;
	}
	if (diskcache_trust_folder(&cache->trust, real, why) != 0) {
		/* Name both when a link led elsewhere: the user knows the first. */
		if (strcmp(dir, real) != 0) {
			char both[2100];

			snprintf(both, sizeof(both), "%.1000s (%.1000s)", dir, real);
			warn_off(logger, "refusing folder", both, why);
		} else {
			warn_off(logger, "refusing folder", dir, why);
		}
		free(dir);
		free(real);
		return CLWARP_OK;
	}
	free(dir);
	if (check_writable(real) != 0) {
		int err = errno;

		if (err != ENOMEM)
			warn_off(logger, "cannot use folder", real, strerror(err));
		free(real);
		return err == ENOMEM ? CLWARP_ERROR_OUT_OF_MEMORY : CLWARP_OK;
	}
	cache->dir = real;
	log_debug(logger, "disk cache in %s%s", real, cache->trust.shared ? " (shared by a group)" : "");
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
