/* The rewrites of a program that includes <clwarp/cuda.h>: CUDA's spellings
 * that OpenCL C reads otherwise (cudarewrite.h). */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cudarewrite.h"

#include <ctype.h>
#include <string.h>

#include "error.h"
#include "sourcewords.h"

/* The compiler's error for what OpenCL C cannot say, at the place where
 * the program says it; in code that an #if leaves out it says nothing. */
#define PRAGMA_ERROR(text) "_Pragma(\"GCC error \\\"<clwarp/cuda.h>: " text "\\\"\")"

#define TEMPLATE_ERROR PRAGMA_ERROR("a C++ template: OpenCL C has no templates; write the " \
	"function once for each type it is used with (a macro can write them)")
#define SHARED_IN_HELPER_ERROR PRAGMA_ERROR("__shared__ in a function that is not a kernel: " \
	"OpenCL C has local memory variables only in kernels; declare it in the kernel and pass " \
	"this function a pointer to it")
#define TEMPLATE_ARGS_ERROR PRAGMA_ERROR("explicit template arguments: OpenCL C has no " \
	"templates; call a function written for those arguments")

static bool
is_word(const char *p, size_t len, const char *word)
{
	return strlen(word) == len && strncmp(p, word, len) == 0;
}

static const char *
skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The `>` that closes the `<` at p, or NULL where there is none before
 * `;`, `{`, `}` or (one_line) the end of the line. With plain_args, only
 * what explicit template arguments hold may come between: names, numbers,
 * `,`, `*`, `::`, blanks and nested `<>`. */
static const char *
closing_angle(const char *p, bool one_line, bool plain_args)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '<')
			depth++;
		else if (*p == '>' && --depth == 0)
			return p;
		else if (*p == ';' || *p == '{' || *p == '}' || (one_line && *p == '\n'))
			return NULL;
		else if (plain_args && !is_ident_char(*p) && !strchr(" \t,*:", *p))
			return NULL;
	}
	return NULL;
}

/* The line breaks of [p, end), which is left out: every later line keeps
 * its number. */
static void
put_line_breaks(struct strbuf *out, const char *p, const char *end)
{
	for (; p < end; p++) {
		if (*p == '\n')
			strbuf_append(out, "\n", 1);
	}
}

/* A number's suffix with `ll` in it (1ll, 2ULL, 3llu): one `l` fewer, the
 * same 64 bits as OpenCL C's `long`. [p, end) is the pp-number. */
static void
put_number(struct strbuf *out, const char *p, const char *end)
{
	const char *s = end;

	while (s > p && strchr("uUlL", s[-1]))
		s--;
	for (const char *q = s; q + 1 < end; q++) {
		if ((q[0] == 'l' && q[1] == 'l') || (q[0] == 'L' && q[1] == 'L')) {
			strbuf_append(out, p, (size_t)(q - p));
			strbuf_append(out, q + 1, (size_t)(end - q - 1));
			return;
		}
	}
	strbuf_append(out, p, (size_t)(end - p));
}

static const char *
number_end(const char *p)
{
	while (is_ident_char(*p) || *p == '.' ||
	       ((*p == '+' || *p == '-') && strchr("eEpP", p[-1])))
		p++;
	return p;
}

/* A name at p ([p, end)): `long long`'s second `long` goes; a template
 * header or explicit template arguments become the compiler's error. The
 * end of what was consumed. */
static const char *
put_name(struct strbuf *out, const char *p, const char *end, bool directive, bool *after_long)
{
	size_t len = (size_t)(end - p);
	const char *q = skip_blanks(end), *close;

	if (is_word(p, len, "long") && *after_long) {
		*after_long = false;
		return end;	/* the blank before it stays */
	}
	*after_long = is_word(p, len, "long");
	if (directive)
		;
	else if (is_word(p, len, "template") && *q == '<' && (close = closing_angle(q, false, false))) {
		strbuf_puts(out, TEMPLATE_ERROR);
		put_line_breaks(out, p, close + 1);
		return close + 1;
	} else if (*end == '<' && !is_word(p, len, "static_cast") && !is_word(p, len, "const_cast") &&
		   !is_word(p, len, "reinterpret_cast") && (close = closing_angle(end, true, true)) &&
		   close > end + 1 && *skip_blanks(close + 1) == '(') {
		strbuf_puts(out, TEMPLATE_ARGS_ERROR " ");
		strbuf_append(out, p, len);
		return close + 1;
	}
	strbuf_append(out, p, len);
	return end;
}

/* A comment, string or character literal at p: copied; its end. */
static const char *
put_literal(struct strbuf *out, const char *p)
{
	const char *start = p;

	if (p[1] == '/') {
		p = strchr(p, '\n');
		p = p ? p : start + strlen(start);
	} else if (p[1] == '*') {
		const char *e = strstr(p + 2, "*/");

		p = e ? e + 2 : p + strlen(p);
	} else {
		char quote = *p++;

		while (*p && *p != quote && *p != '\n') {
			if (*p == '\\' && p[1])
				p++;
			p++;
		}
		if (*p == quote)
			p++;
	}
	strbuf_append(out, start, (size_t)(p - start));
	return p;
}

clwarp_status
cuda_rewrite_text(struct strbuf *text)
{
	struct strbuf out = { 0 };
	const char *p = text->data ? text->data : "";
	bool line_start = true, directive = false, after_long = false;

	while (*p) {
		if (*p == '\n') {
			directive = directive && p > text->data && p[-1] == '\\';
			line_start = true;
			strbuf_append(&out, p++, 1);
		} else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\\') {
			strbuf_append(&out, p++, 1);
		} else if ((*p == '/' && (p[1] == '/' || p[1] == '*')) || *p == '"' || *p == '\'') {
			p = put_literal(&out, p);
			line_start = false;
			after_long = false;
		} else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
			const char *end = number_end(p + 1);

			put_number(&out, p, end);
			p = end;
			line_start = after_long = false;
		} else if (is_ident_start(*p)) {
			const char *end = p;

			while (is_ident_char(*end))
				end++;
			p = put_name(&out, p, end, directive, &after_long);
			line_start = false;
		} else {
			directive = directive || (line_start && *p == '#');
			line_start = after_long = false;
			strbuf_append(&out, p++, 1);
		}
	}
	if (out.failed) {
		strbuf_free(&out);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	strbuf_free(text);
	*text = out;
	return CLWARP_OK;
}

/* The end (after its `;`) of the declaration whose first word, `__shared__`,
 * ends at p; NULL where it has an initializer, braces, a comment or a
 * directive, which the hoist leaves alone. */
static const char *
shared_decl_end(const char *p)
{
	for (; *p && *p != ';'; p++) {
		if (strchr("{}=#\"'", *p) || (*p == '/' && (p[1] == '/' || p[1] == '*')))
			return NULL;
	}
	return *p ? p + 1 : NULL;
}

/*
 * Move a `__shared__` declaration [decl, end) from a nested block of a
 * kernel to out[at], a statement boundary of the kernel's outermost block,
 * and put blanks where it was, keeping its line breaks. The number of
 * line breaks.
 */
static unsigned
hoist_shared(struct strbuf *out, size_t at, const char *decl, const char *end)
{
	size_t len = (size_t)(end - decl), tail = out->len - at;
	unsigned lines = 0;

	/* Room for the declaration and a blank, then the text after `at` moves up. */
	strbuf_append(out, decl, len);
	strbuf_append(out, " ", 1);
	if (out->failed)
		return 0;
	memmove(out->data + at + len + 1, out->data + at, tail);
	for (size_t i = 0; i < len; i++)
		out->data[at + i] = decl[i] == '\n' ? ' ' : decl[i];
	out->data[at + len] = ' ';
	for (const char *p = decl; p < end; p++) {
		strbuf_append(out, *p == '\n' ? "\n" : " ", 1);
		lines += *p == '\n';
	}
	return lines;
}

/* `static` just before (CUDA's `static __shared__`): blanks, in a kernel
 * (OpenCL C's static variables are constant ones). */
static void
drop_static(struct strbuf *out)
{
	size_t n = out->len;

	while (n > 0 && strchr(" \t\n", out->data[n - 1]))
		n--;
	if (n >= 6 && strncmp(out->data + n - 6, "static", 6) == 0 &&
	    (n == 6 || !is_ident_char(out->data[n - 7])))
		memset(out->data + n - 6, ' ', 6);
}

bool
cuda_shared_word(struct strbuf *out, const char *word, const char **p, int kernel_depth,
		 size_t stmt_at, unsigned *line)
{
	const char *end;

	if (*p - word != 10 || strncmp(word, "__shared__", 10) != 0)
		return false;
	end = shared_decl_end(*p);
	if (kernel_depth > 0)
		drop_static(out);
	if (kernel_depth > 1 && end) {
		*line += hoist_shared(out, stmt_at, word, end);
		*p = end;
		return true;
	}
	if (kernel_depth == 0)
		strbuf_puts(out, SHARED_IN_HELPER_ERROR " ");
	return false;
}
