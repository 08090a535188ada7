/* clwarp-run: the //! run and //! expect directives of a kernel file. */
/* SPDX-License-Identifier: MIT */
#include "kernel-file.h"

#include "regular-file.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool
push_word(int *argc, char ***argv, const char *word, size_t len)
{
	char **v = realloc(*argv, ((size_t)*argc + 2) * sizeof(char *));
	char *copy;

	if (!v)
		return false;
	*argv = v;
	copy = malloc(len + 1);
	if (!copy)
		return false;
	memcpy(copy, word, len);
	copy[len] = '\0';
	v[(*argc)++] = copy;
	v[*argc] = NULL;
	return true;
}

bool
kernel_file_split(const char *text, int *argc, char ***argv, char *err, size_t errlen)
{
	const char *p = text;
	size_t cap = strlen(text) + 1;
	char *word = malloc(cap);
	bool ok = true;

	if (!word) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	for (;;) {
		size_t len = 0;
		bool have = false;

		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			break;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r') {
			have = true;
			if (*p == '\'') {
				const char *end = strchr(p + 1, '\'');

				if (!end) {
					snprintf(err, errlen, "unterminated ' quote");
					ok = false;
					goto out;
				}
				memcpy(word + len, p + 1, (size_t)(end - p - 1));
				len += (size_t)(end - p - 1);
				p = end + 1;
			} else if (*p == '"') {
				p++;
				while (*p && *p != '"') {
					if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
						p++;
					word[len++] = *p++;
				}
				if (*p != '"') {
					snprintf(err, errlen, "unterminated \" quote");
					ok = false;
					goto out;
				}
				p++;
			} else if (*p == '\\' && p[1]) {
				word[len++] = p[1];
				p += 2;
			} else {
				word[len++] = *p++;
			}
		}
		if (have && !push_word(argc, argv, word, len)) {
			snprintf(err, errlen, "out of memory");
			ok = false;
			goto out;
		}
	}
out:
	free(word);
	return ok;
}

static char *
read_all(const char *path, size_t *size, char *err, size_t errlen)
{
	FILE *f = regular_file_open(path, err, errlen);
	char *data = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *grown = realloc(data, cap ? cap * 2 : 8192);

			if (!grown) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			data = grown;
			cap = cap ? cap * 2 : 8192;
		}
		size_t n = fread(data + len, 1, cap - len - 1, f);

		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
		goto fail;
	}
	fclose(f);
	data[len] = '\0';
	*size = len;
	return data;
fail:
	fclose(f);
	free(data);
	return NULL;
}

/* An expect line's "[K]@W:" (both optional) at @p p: K, W, and *rest after the ':'. */
static int
expect_head(const struct kernel_file *kf, const char *p, int line, unsigned long *k,
	    unsigned long *width, const char **rest, char *err, size_t errlen)
{
	if (*p == '[') {
		char *end;

		errno = 0;
		if (!isdigit((unsigned char)p[1])) {
			snprintf(err, errlen, "%s:%d: expected a number in expect[K]", kf->path, line);
			return 2;
		}
		*k = strtoul(p + 1, &end, 10);
		if (errno || *end != ']' || *k > 1u << 20) {
			snprintf(err, errlen, "%s:%d: malformed expect[K]", kf->path, line);
			return 2;
		}
		p = end + 1;
	}
	if (*p == '@') {
		char *end;

		errno = 0;
		if (!isdigit((unsigned char)p[1])) {
			snprintf(err, errlen,
				 "%s:%d: expected a warp width after '@' in expect[K]@W (1, 2, 4, ... 64)",
				 kf->path, line);
			return 2;
		}
		*width = strtoul(p + 1, &end, 10);
		if (errno || *width < 1 || *width > 64 || (*width & (*width - 1))) {
			snprintf(err, errlen,
				 "%s:%d: bad warp width '@%.*s' in expect[K]@W (expected a power of two from 1 to 64)",
				 kf->path, line, (int)(end - p - 1 > 20 ? 20 : end - p - 1), p + 1);
			return 2;
		}
		p = end;
	}
	if (*p != ':') {
		snprintf(err, errlen, "%s:%d: expected ':' after expect[K] or expect[K]@W", kf->path,
			 line);
		return 2;
	}
	*rest = p + 1;
	return 0;
}

/* The values of expect line @p e, from @p text. */
static bool
expect_values(struct kf_expect *e, const char *text)
{
	char *copy = strdup(text), *tok, *save = NULL;

	if (!copy)
		return false;
	for (tok = strtok_r(copy, " \t\r,", &save); tok; tok = strtok_r(NULL, " \t\r,", &save)) {
		char **v = realloc(e->values, (e->count + 1) * sizeof(char *));

		if (!v || !(v[e->count] = strdup(tok))) {
			if (v)
				e->values = v;
			free(copy);
			return false;
		}
		e->values = v;
		e->count++;
	}
	free(copy);
	return true;
}

static int
parse_expect(struct kernel_file *kf, const char *rest, int line, char *err, size_t errlen)
{
	unsigned long k = 0, width = 0;
	const char *p;
	struct kf_expect *e;
	int rc = expect_head(kf, rest, line, &k, &width, &p, err, errlen);

	if (rc)
		return rc;
	for (size_t i = 0; i < kf->expect_count; i++) {
		if (kf->expects[i].k != k || kf->expects[i].width != width)
			continue;
		if (width)
			snprintf(err, errlen,
				 "%s:%d: a second expect line for out: buffer %lu at width %lu (the first is on line %d)",
				 kf->path, line, k, width, kf->expects[i].line);
		else
			snprintf(err, errlen, "%s:%d: a second expect line for out: buffer %lu", kf->path,
				 line, k);
		return 2;
	}
	e = realloc(kf->expects, (kf->expect_count + 1) * sizeof(*e));
	if (!e)
		goto oom;
	kf->expects = e;
	e = &kf->expects[kf->expect_count++];
	memset(e, 0, sizeof(*e));
	e->line = line;
	e->k = (unsigned)k;
	e->width = (unsigned)width;
	if (!expect_values(e, p))
		goto oom;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return 2;
}

int
kernel_file_parse(const char *path, char *text, struct kernel_file *kf, char *err, size_t errlen)
{
	char *p;
	const char *slash;
	int line = 0;
	int rc = 0;

	memset(kf, 0, sizeof(*kf));
	kf->path = strdup(path);
	slash = strrchr(path, '/');
	if (!slash)
		kf->dir = strdup(".");
	else if (slash == path)
		kf->dir = strdup("/");
	else
		kf->dir = strndup(path, (size_t)(slash - path));
	if (!kf->path || !kf->dir) {
		snprintf(err, errlen, "out of memory");
		return 2;
	}
	/* A UTF-8 byte-order mark is not a blank before a directive, but
	 * neither is it text (the library skips it too). */
	if (strncmp(text, "\xEF\xBB\xBF", 3) == 0)
		text += 3;
	for (p = text; *p && rc == 0;) {
		char *eol = strchr(p, '\n');
		char *s = p;

		if (eol)
			*eol = '\0';
		line++;
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, "//!", 3) == 0) {
			s += 3;
			while (*s == ' ' || *s == '\t')
				s++;
			if (strncmp(s, "run:", 4) == 0) {
				struct kf_run *r = realloc(kf->runs, (kf->run_count + 1) * sizeof(*r));
				char why[120];

				if (!r) {
					snprintf(err, errlen, "out of memory");
					rc = 2;
					break;
				}
				kf->runs = r;
				r = &kf->runs[kf->run_count++];
				r->line = line;
				r->argc = 0;
				r->argv = NULL;
				if (!kernel_file_split("clwarp-run", &r->argc, &r->argv, why, sizeof(why)) ||
				    !kernel_file_split(s + 4, &r->argc, &r->argv, why, sizeof(why))) {
					snprintf(err, errlen, "%s:%d: //! run: %s", path, line, why);
					rc = 2;
				}
			} else if (strncmp(s, "expect", 6) == 0 && (s[6] == '[' || s[6] == '@' || s[6] == ':')) {
				rc = parse_expect(kf, s + 6, line, err, errlen);
			} else {
				char *end = s + strlen(s);

				while (end > s && isspace((unsigned char)end[-1]))
					end--;
				snprintf(err, errlen,
					 "%s:%d: unknown directive '//! %.*s' (expected run:, expect[K]: or expect[K]@W:)",
					 path, line, (int)(end - s), s);
				rc = 2;
			}
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	return rc;
}

int
kernel_file_load(const char *path, struct kernel_file *kf, char *err, size_t errlen)
{
	char *text, *nul;
	size_t size = 0;
	int rc;

	memset(kf, 0, sizeof(*kf));
	text = read_all(path, &size, err, errlen);
	if (!text)
		return 2;
	/* The directives, like the compiler, would stop at a NUL: say so
	 * rather than read half a file. */
	nul = memchr(text, '\0', size);
	if (nul) {
		int line = 1;

		for (const char *p = text; p < nul; p++)
			line += *p == '\n';
		snprintf(err, errlen, "%s:%d: not OpenCL C source: a NUL byte (a binary file?)", path,
			 line);
		free(text);
		return 2;
	}
	rc = kernel_file_parse(path, text, kf, err, errlen);
	free(text);
	return rc;
}

void
kernel_file_clear(struct kernel_file *kf)
{
	for (size_t i = 0; i < kf->run_count; i++) {
		for (int j = 0; j < kf->runs[i].argc; j++)
			free(kf->runs[i].argv[j]);
		free(kf->runs[i].argv);
	}
	for (size_t i = 0; i < kf->expect_count; i++) {
		for (size_t j = 0; j < kf->expects[i].count; j++)
			free(kf->expects[i].values[j]);
		free(kf->expects[i].values);
	}
	free(kf->runs);
	free(kf->expects);
	free(kf->path);
	free(kf->dir);
	memset(kf, 0, sizeof(*kf));
}

const struct kf_expect *
kernel_file_expect(const struct kernel_file *kf, unsigned k, unsigned width)
{
	const struct kf_expect *any = NULL;

	for (size_t i = 0; i < kf->expect_count; i++) {
		const struct kf_expect *e = &kf->expects[i];

		if (e->k != k)
			continue;
		if (width && e->width == width)
			return e;
		if (e->width == 0)
			any = e;
	}
	return any;
}

bool
kernel_file_expects(const struct kernel_file *kf, unsigned k)
{
	for (size_t i = 0; i < kf->expect_count; i++) {
		if (kf->expects[i].k == k)
			return true;
	}
	return false;
}

void
kernel_file_expect_widths(const struct kernel_file *kf, unsigned k, char *buf, size_t buflen)
{
	size_t len = 0;

	if (buflen)
		buf[0] = '\0';
	/* The widths are powers of two up to 64: one pass per width keeps
	 * them ascending whatever the order of the lines. */
	for (unsigned w = 1; w <= 64; w *= 2) {
		for (size_t i = 0; i < kf->expect_count; i++) {
			const struct kf_expect *e = &kf->expects[i];
			int n;

			if (e->k != k || e->width != w || len >= buflen)
				continue;
			n = snprintf(buf + len, buflen - len, "%s%u", len ? ", " : "", w);
			if (n > 0)
				len += (size_t)n;
		}
	}
}
