/* Shared helpers of the libFuzzer targets: the entry point, temp folders, files. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_FUZZ_H
#define CLWARP_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* libFuzzer calls this once per input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A bug the sanitizers cannot see (a wrong result): abort, so libFuzzer
 * keeps the input as a crash. */
#define FUZZ_CHECK(cond)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,  \
				__LINE__, #cond);                               \
			abort();                                                \
		}                                                               \
	} while (0)

/* A NUL-terminated copy of data[0, size). */
static inline char *
fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	FUZZ_CHECK(s);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* One folder for the whole process, under $TMPDIR or /tmp, removed at
 * exit: every input reuses it, so a run creates no litter. */
static char *fuzz_dir_path;

static inline void
fuzz_dir_remove(void)
{
	char cmd[4200];

	if (!fuzz_dir_path)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fuzz_dir_path);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", fuzz_dir_path);
	free(fuzz_dir_path);
	fuzz_dir_path = NULL;
}

static inline const char *
fuzz_dir(void)
{
	const char *base = getenv("TMPDIR");

	if (fuzz_dir_path)
		return fuzz_dir_path;
	if (!base || !*base)
		base = "/tmp";
	fuzz_dir_path = malloc(4096);
	FUZZ_CHECK(fuzz_dir_path);
	snprintf(fuzz_dir_path, 4096, "%s/clwarp-fuzz-XXXXXX", base);
	FUZZ_CHECK(mkdtemp(fuzz_dir_path));
	atexit(fuzz_dir_remove);
	return fuzz_dir_path;
}

/* dir/name, malloc'd. */
static inline char *
fuzz_path(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *path = malloc(len);

	FUZZ_CHECK(path);
	snprintf(path, len, "%s/%s", dir, name);
	return path;
}

static inline void
fuzz_write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	FUZZ_CHECK(f);
	/* Mode 0600 as the cache's own entries: a group-writable one (umask
	 * 002) would be untrusted, ignored instead of checked. */
	FUZZ_CHECK(fchmod(fileno(f), 0600) == 0);
	FUZZ_CHECK(size == 0 || fwrite(data, 1, size, f) == size);
	FUZZ_CHECK(fclose(f) == 0);
}

/* Split data[0, size) at each `sep` into at most `max` parts (the last
 * part keeps any further separators); returns the number of parts. */
static inline size_t
fuzz_split(const uint8_t *data, size_t size, uint8_t sep, const uint8_t **part, size_t *len,
	   size_t max)
{
	size_t n = 0;

	while (n + 1 < max) {
		const uint8_t *s = size ? memchr(data, sep, size) : NULL;

		if (!s)
			break;
		part[n] = data;
		len[n++] = (size_t)(s - data);
		size -= (size_t)(s - data) + 1;
		data = s + 1;
	}
	part[n] = data;
	len[n++] = size;
	return n;
}

#endif
