/* Small internal helpers: growable strings, time, files. */
/* SPDX-License-Identifier: MIT */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void
strbuf_reserve(struct strbuf *sb, size_t extra)
{
	size_t need, cap;
	char *data;

	if (sb->failed)
		return;
	if (extra > SIZE_MAX - sb->len - 1) {
		sb->failed = true;
		return;
	}
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return;
	cap = sb->cap ? sb->cap : 256;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	data = realloc(sb->data, cap);
	if (!data) {
		sb->failed = true;
		return;
	}
	sb->data = data;
	sb->cap = cap;
}

void
strbuf_append(struct strbuf *sb, const char *text, size_t len)
{
	strbuf_reserve(sb, len);
	if (sb->failed)
		return;
	memcpy(sb->data + sb->len, text, len);
	sb->len += len;
	sb->data[sb->len] = '\0';
}

void
strbuf_puts(struct strbuf *sb, const char *text)
{
	strbuf_append(sb, text, strlen(text));
}

void
strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->failed = true;
		return;
	}
	strbuf_reserve(sb, (size_t)n);
	if (sb->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void
strbuf_truncate(struct strbuf *sb, size_t len)
{
	if (sb->data && len < sb->len) {
		sb->len = len;
		sb->data[len] = '\0';
	}
}

char *
strbuf_steal(struct strbuf *sb)
{
	char *data;

	if (sb->failed) {
		strbuf_free(sb);
		return NULL;
	}
	data = sb->data ? sb->data : calloc(1, 1);
	sb->data = NULL;
	sb->len = sb->cap = 0;
	return data;
}

void
strbuf_free(struct strbuf *sb)
{
	free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
	sb->failed = false;
}

double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

char *
xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

int
read_file(const char *path, char **data, size_t *size)
{
	struct strbuf sb = { 0 };
	char chunk[65536];
	size_t n;
	FILE *f;
	int err;

	f = fopen(path, "rb");
	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_append(&sb, chunk, n);
	err = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (!err && sb.failed)
		err = ENOMEM;
	if (err) {
		strbuf_free(&sb);
		errno = err;
		return -1;
	}
	*size = sb.len;
	*data = strbuf_steal(&sb);
	if (!*data) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

bool
contains_icase(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++) {
		size_t i = 0;

		while (i < n && haystack[i] &&
		       tolower((unsigned char)haystack[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return true;
	}
	return n == 0;
}

bool
word_in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p;) {
		while (*p == ' ')
			p++;
		const char *end = p;
		while (*end && *end != ' ')
			end++;
		if ((size_t)(end - p) == n && strncmp(p, word, n) == 0)
			return true;
		p = end;
	}
	return false;
}
