/* Build logs: map compiler positions back to the user's files and lines. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "buildlog.h"

#include <ctype.h>
#include <stdlib.h>

#include "util.h"

/* Where each physical line of the program text came from. */
struct line_origin {
	const char *file;   /* points into the text, after the opening quote */
	size_t file_len;
	unsigned line;
};

static struct line_origin *
build_line_map(const char *text, size_t *count)
{
	struct line_origin *map = NULL, cur = { "<kernel>", 8, 1 };
	size_t n = 0, cap = 0;

	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		const char *q = p;

		if (n == cap) {
			struct line_origin *m;

			cap = cap ? cap * 2 : 1024;
			m = realloc(map, cap * sizeof(*m));
			if (!m) {
				free(map);
				return NULL;
			}
			map = m;
		}
		map[n++] = cur;
		cur.line++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "#line ", 6) == 0) {
			char *after;
			unsigned long line = strtoul(q + 6, &after, 10);
			const char *quote = strchr(after, '"');

			if (quote && (!end || quote < end)) {
				const char *close = strchr(quote + 1, '"');

				if (close && (!end || close < end)) {
					cur.file = quote + 1;
					cur.file_len = (size_t)(close - quote - 1);
				}
			}
			cur.line = (unsigned)line;
		}
		if (!end)
			break;
		p = end + 1;
	}
	*count = n;
	return map;
}

static bool
starts_position(const char *p, const char **tag_end)
{
	static const char *const tags[] = { "<kernel>:", "<source>:", "<stdin>:" };

	for (size_t i = 0; i < ARRAY_LENGTH(tags); i++) {
		size_t len = strlen(tags[i]);

		if (strncmp(p, tags[i], len) == 0 && isdigit((unsigned char)p[len])) {
			*tag_end = p + len;
			return true;
		}
	}
	return false;
}

char *
buildlog_remap(const char *log, const char *text)
{
	struct strbuf out = { 0 };
	struct line_origin *map;
	size_t lines = 0;

	if (!log)
		return NULL;
	map = build_line_map(text, &lines);
	for (const char *p = log; *p;) {
		const char *digits;

		if (map && starts_position(p, &digits)) {
			char *after;
			unsigned long line = strtoul(digits, &after, 10);

			if (line >= 1 && line <= lines) {
				const struct line_origin *o = &map[line - 1];

				strbuf_append(&out, o->file, o->file_len);
				strbuf_printf(&out, ":%u", o->line);
				p = after;
				continue;
			}
		}
		strbuf_append(&out, p, 1);
		p++;
	}
	free(map);
	return strbuf_steal(&out);
}
