/* Function-like kernel macros, expanded where a kernel is declared with one. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "kernelexpand.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "macrotable.h"
#include "sourcewords.h"

/* Expansions of one macro into the next, at most. */
#define MAX_STEPS 32
#define MAX_ARGS 64

struct span {
	const char *p;
	size_t len;
};

static const char *
skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

static struct span
trimmed(const char *p, const char *end)
{
	p = skip_space(p, end);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
		end--;
	return (struct span){ p, (size_t)(end - p) };
}

/* Split the parenthesised list at p (p at its `(`) at its top-level commas:
 * the number of items (-1: unbalanced or too many); *close: its `)`. */
static int
split_list(const char *p, const char *end, struct span *items, const char **close)
{
	const char *start = p + 1;
	int depth = 0, n = 0;

	for (; p < end; p++) {
		if (*p == '"' || *p == '\'') {
			char q = *p;

			for (p++; p < end && *p != q; p++)
				p += *p == '\\';
			continue;
		}
		depth += *p == '(';
		depth -= *p == ')';
		if ((depth == 1 && *p == ',') || (depth == 0 && *p == ')')) {
			if (n == MAX_ARGS)
				return -1;
			items[n++] = trimmed(start, p);
			start = p + 1;
			if (depth == 0) {
				*close = p;
				return n;
			}
		}
	}
	return -1;
}

static int
param_index(const struct span *params, int count, const char *name, size_t len)
{
	for (int i = 0; i < count; i++) {
		struct span s = params[i];

		if (s.len == 3 && strncmp(s.p, "...", 3) == 0)
			s = (struct span){ "__VA_ARGS__", 11 };
		if (s.len == len && strncmp(s.p, name, len) == 0)
			return i;
	}
	return -1;
}

/* e's body with `args` for its parameters, `##` pasted. NULL: `#`, which
 * a declaration has no use for, or out of memory. */
static char *
substitute(const struct km_macro *e, const struct span *args, int nargs)
{
	struct span params[MAX_ARGS];
	const char *close, *p = e->body, *end = e->body + strlen(e->body);
	struct strbuf sb = { 0 };
	size_t plen = strlen(e->params);
	char *list = malloc(plen + 3);
	int count;

	if (!list)
		return NULL;
	snprintf(list, plen + 3, "(%s)", e->params);
	count = split_list(list, list + plen + 2, params, &close);
	if (count == 1 && params[0].len == 0)
		count = 0;
	if (count != nargs && !(count == 0 && nargs == 1 && args[0].len == 0))
		count = -1;
	while (count >= 0 && p < end) {
		const char *start = p;

		if (is_ident_start(*p)) {
			int i;

			while (p < end && is_ident_char(*p))
				p++;
			i = param_index(params, count, start, (size_t)(p - start));
			if (i >= 0)
				strbuf_append(&sb, args[i].p, args[i].len);
			else
				strbuf_append(&sb, start, (size_t)(p - start));
		} else if (p + 1 < end && p[0] == '#' && p[1] == '#') {
			while (sb.len && (sb.data[sb.len - 1] == ' ' || sb.data[sb.len - 1] == '\t'))
				strbuf_truncate(&sb, sb.len - 1);
			p = skip_space(p + 2, end);
		} else if (*p == '#') {
			count = -1;
		} else if (p + 1 < end && p[0] == '\\' && p[1] == '\n') {
			strbuf_puts(&sb, " ");
			p += 2;
		} else {
			strbuf_append(&sb, p++, 1);
		}
	}
	free(list);
	if (count < 0 || sb.failed) {
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_steal(&sb);
}

/* The first word of p .. end after any __attribute__((...)); *len 0: none. */
static const char *
leading_word(const char *p, const char *end, size_t *len)
{
	for (;;) {
		const char *w = skip_space(p, end), *close;
		struct span items[MAX_ARGS];

		for (p = w; p < end && is_ident_char(*p); p++)
			;
		*len = w < end && is_ident_start(*w) ? (size_t)(p - w) : 0;
		if (!(*len == 13 && strncmp(w, "__attribute__", 13) == 0) &&
		    !(*len == 11 && strncmp(w, "__attribute", 11) == 0))
			return w;
		p = skip_space(p, end);
		if (p >= end || *p != '(' || split_list(p, end, items, &close) < 0)
			return w;
		p = close + 1;
	}
}

static bool
is_kernel_word(const char *w, size_t len)
{
	return (len == 6 && strncmp(w, "kernel", 6) == 0) || (len == 8 && strncmp(w, "__kernel", 8) == 0);
}

/* One step: the macro at w[at .. at + len] replaced by its expansion.
 * false: it cannot be followed. */
static bool
expand_step(const struct km_macro *e, struct strbuf *w, size_t at, size_t len)
{
	const char *end = w->data + w->len, *from = w->data + at, *to = from + len, *close;
	struct span args[MAX_ARGS];
	struct strbuf next = { 0 };
	char *repl = NULL;
	int n;

	if (!e->function_like) {
		repl = e->body ? strdup(e->body) : NULL;
	} else {
		const char *q = skip_space(to, end);

		n = q < end && *q == '(' ? split_list(q, end, args, &close) : -1;
		repl = n >= 0 && e->params && e->body ? substitute(e, args, n) : NULL;
		to = n >= 0 ? close + 1 : to;
	}
	if (!repl)
		return false;
	strbuf_append(&next, w->data, at);
	strbuf_puts(&next, repl);
	strbuf_append(&next, to, (size_t)(end - to));
	free(repl);
	if (next.failed) {
		strbuf_free(&next);
		return false;
	}
	strbuf_free(w);
	*w = next;
	return true;
}

/* Expand w until it starts (after attributes) with `kernel`, `__kernel` or
 * an object-like kernel macro: the offset and length of that word. */
static bool
follow(const struct kernel_macros *m, struct strbuf *w, size_t *at, size_t *len)
{
	for (unsigned step = 0; step < MAX_STEPS && w->data; step++) {
		const char *word = leading_word(w->data, w->data + w->len, len);
		const struct km_macro *e;

		*at = (size_t)(word - w->data);
		if (*len == 0)
			return false;
		if (is_kernel_word(word, *len))
			return true;
		e = macro_find(m, word, *len);
		if (!e || e->defined != TRI_YES)
			return false;
		if (e->kind == KIND_WORD)
			return true;
		if ((e->kind != KIND_CALL && e->kind != KIND_EXPAND) || !expand_step(e, w, *at, *len))
			return false;
	}
	return false;
}

clwarp_status
kernel_expand(const struct kernel_macros *m, const char *text, unsigned pin, const char *file,
	      unsigned *line, struct strbuf *out, const char **after)
{
	const char *end = text + strlen(text), *p = text, *close = NULL;
	struct span args[MAX_ARGS];
	const struct km_macro *e;
	struct strbuf w = { 0 };
	size_t at = 0, len = 0, name_len;
	unsigned breaks = 0;
	bool ok;

	while (p < end && is_ident_char(*p))
		p++;
	name_len = (size_t)(p - text);
	e = macro_find(m, text, name_len);
	/* The arguments of a function-like macro (or of one that an object-like
	 * macro names) follow; a macro that gives them itself is its name. */
	if (e && e->kind == KIND_CALL) {
		p = skip_space(p, end);
		ok = p < end && *p == '(' && split_list(p, end, args, &close) >= 0;
	} else {
		close = p - 1;
		ok = e != NULL;
	}
	if (ok) {
		strbuf_append(&w, text, (size_t)(close + 1 - text));
		ok = follow(m, &w, &at, &len);
	}
	if (!ok) {
		strbuf_free(&w);
		return set_error(CLWARP_ERROR_BUILD,
				 "%s:%u: the kernel macro `%.*s` cannot be followed to its `kernel` (its "
				 "arguments do not match its parameters, it uses #, or it is defined "
				 "differently on the sides of a conditional): declare the kernel with `kernel` "
				 "or an object-like macro",
				 file, *line, (int)name_len, text);
	}
	for (size_t i = 0; i < w.len; i++)
		if (w.data[i] == '\n' || w.data[i] == '\r')
			w.data[i] = ' ';
	for (const char *q = text; q <= close; q++)
		breaks += *q == '\n';
	strbuf_append(out, w.data, at + len);
	if (pin)
		strbuf_printf(out, " __attribute__((intel_reqd_sub_group_size(%u)))", pin);
	strbuf_append(out, w.data + at + len, w.len - at - len);
	*line += breaks;
	while (breaks--)
		strbuf_puts(out, "\n");
	strbuf_free(&w);
	*after = close + 1;
	return CLWARP_OK;
}
