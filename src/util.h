/* Small internal helpers: growable strings, time, checked arithmetic. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_UTIL_H
#define CLWARP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "log.h"

#define ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))

static inline bool
streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/*
 * A growable, always NUL-terminated string. An allocation failure sets
 * `failed` and turns later appends into no-ops, so callers check once at the
 * end instead of after every append.
 */
struct strbuf {
	char *data;
	size_t len;
	size_t cap;
	bool failed;
};

void strbuf_append(struct strbuf *sb, const char *text, size_t len);
void strbuf_puts(struct strbuf *sb, const char *text);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...) CLWARP_PRINTF(2, 3);
void strbuf_truncate(struct strbuf *sb, size_t len);
/* Hand the buffer's memory to the caller ("" if empty); the strbuf is reset. */
char *strbuf_steal(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);

/* Monotonic clock in milliseconds. */
double now_ms(void);

/* strdup that accepts NULL. */
char *xstrdup(const char *s);

/* Read a whole file; *data is NUL-terminated and malloc'd. Sets errno on failure. */
int read_file(const char *path, char **data, size_t *size);

/* Case-insensitive substring search. */
bool contains_icase(const char *haystack, const char *needle);

/* Is `word` one of the space-separated words of `list`? */
bool word_in_list(const char *list, const char *word);

#endif
