/* Kernels declared through macros, and the conditionals the compiler takes. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "kernelmacro.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "macrotable.h"
#include "ppexpr.h"
#include "sourcewords.h"

struct km_cond {
	enum tri live;   /* this side is compiled (the enclosing text included) */
	enum tri taken;  /* this side or an earlier one is taken */
	enum tri outer;  /* the text around the conditional is compiled */
	char *where;     /* file:line, where its value is not known */
	char *guard;     /* `#ifndef X` of a name the compiler may define: X */
};

static enum tri
tri_and(enum tri a, enum tri b)
{
	return a == TRI_NO || b == TRI_NO ? TRI_NO : a == TRI_YES && b == TRI_YES ? TRI_YES : TRI_MAYBE;
}

static enum tri
tri_or(enum tri a, enum tri b)
{
	return a == TRI_YES || b == TRI_YES ? TRI_YES : a == TRI_NO && b == TRI_NO ? TRI_NO : TRI_MAYBE;
}

static enum tri
tri_not(enum tri a)
{
	return a == TRI_MAYBE ? a : a == TRI_YES ? TRI_NO : TRI_YES;
}


/* Skip blanks, comments and line continuations inside a directive. */
static const char *
skip_blank(const char *p, const char *end)
{
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p + 1 < end && p[0] == '\\' && p[1] == '\n')
			p += 2;
		else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *close = p + 2;

			while (close + 1 < end && !(close[0] == '*' && close[1] == '/'))
				close++;
			p = close + 1 < end ? close + 2 : end;
		} else
			return p;
	}
}

/* The identifier at p (or none: *len = 0). */
static const char *
ident(const char *p, const char *end, size_t *len)
{
	const char *start = p;

	if (p < end && is_ident_start(*p))
		while (p < end && is_ident_char(*p))
			p++;
	*len = (size_t)(p - start);
	return start;
}

/* Past the balanced parentheses at p (p at the `(`). */
static const char *
skip_parens(const char *p, const char *end)
{
	int depth = 0;

	for (; p < end; p++) {
		depth += *p == '(';
		depth -= *p == ')';
		if (depth == 0)
			return p + 1;
	}
	return end;
}

/* Does the rest of a kernel macro's body, p .. end, hold a `(` other
 * than an __attribute__'s: the parameter list? */
static bool
holds_params(const char *p, const char *end)
{
	while ((p = skip_blank(p, end)) < end) {
		size_t len;
		const char *word = ident(p, end, &len);

		if (len) {
			p += len;
			if (macro_is_word(word, len, "__attribute__") || macro_is_word(word, len, "__attribute")) {
				p = skip_blank(p, end);
				if (p < end && *p == '(')
					p = skip_parens(p, end);
			}
		} else if (*p == '(') {
			return true;
		} else {
			p++;
		}
	}
	return false;
}

/* What a macro body, p .. end, starts; function_like: the macro's own
 * kind. *where: the conditional a maybe comes from. */
static enum km_kind
body_kind(const struct kernel_macros *m, const char *p, const char *end, bool function_like,
	  const char **where)
{
	const struct km_macro *e;
	const char *word;
	size_t len;

	for (;;) {
		word = ident(skip_blank(p, end), end, &len);
		p = skip_blank(word + len, end);
		if (!macro_is_word(word, len, "__attribute__") && !macro_is_word(word, len, "__attribute"))
			break;
		if (p < end && *p == '(')
			p = skip_parens(p, end);
	}
	if (len == 0)
		return KIND_NONE;
	if (macro_is_word(word, len, "kernel") || macro_is_word(word, len, "__kernel"))
		return holds_params(p, end) ? KIND_WHOLE : function_like ? KIND_CALL : KIND_WORD;
	e = macro_find(m, word, len);
	if (!e || e->defined == TRI_NO || e->kind == KIND_NONE)
		return KIND_NONE;
	if (e->kind == KIND_MAYBE)
		*where = e->where;
	if (e->kind != KIND_CALL)
		return e->kind == KIND_WORD && holds_params(p, end) ? KIND_WHOLE :
		       e->kind == KIND_WORD && function_like ? KIND_CALL : e->kind;
	/* Another function-like kernel macro: given its arguments here or at the use. */
	if (p >= end || *p != '(')
		return holds_params(p, end) ? KIND_WHOLE : KIND_CALL;
	p = skip_parens(p, end);
	return holds_params(p, end) ? KIND_WHOLE : function_like ? KIND_CALL : KIND_WORD;
}

/* The innermost undecided conditional around here: file:line. */
static const char *
undecided_where(const struct kernel_macros *m)
{
	for (size_t i = m->depth; i > 0; i--)
		if (m->conds[i - 1].where)
			return m->conds[i - 1].where;
	return "?";
}

static enum tri
region_live(const struct kernel_macros *m)
{
	return m->depth ? m->conds[m->depth - 1].live : TRI_YES;
}

/* Set e from a #define (defined = YES) or #undef (NO); where the region is
 * maybe compiled, what differs from before becomes maybe. */
static bool
set_macro(struct kernel_macros *m, struct km_macro *e, enum tri defined, enum km_kind kind,
	  bool function_like, const char *body, size_t body_len, const char *where)
{
	bool sure = region_live(m) == TRI_YES;
	char *copy = NULL;

	if (body && (sure || (e->defined == TRI_YES && e->body && !e->function_like &&
			      !function_like && macro_is_word(body, body_len, e->body)))) {
		copy = strndup(body, body_len);
		if (!copy)
			return false;
	}
	if (!sure && e->kind != kind) {
		kind = KIND_MAYBE;
		where = undecided_where(m);
	}
	if (!sure && e->defined != defined)
		defined = TRI_MAYBE;
	free(e->body);
	e->body = copy;
	e->defined = defined;
	e->function_like = function_like;
	if (kind != KIND_MAYBE || where != e->where) {
		char *w = kind == KIND_MAYBE && where ? strdup(where) : NULL;

		if (kind == KIND_MAYBE && where && !w)
			return false;
		free(e->where);
		e->where = w;
	}
	e->kind = kind;
	return true;
}

/* `#define name...` or `#undef name`, p after the directive word. */
static bool
define(struct kernel_macros *m, const char *p, const char *end, bool undef)
{
	const char *name, *body, *where = NULL, *params = NULL;
	size_t name_len;
	bool function_like;
	struct km_macro *e;
	enum km_kind kind;

	name = ident(skip_blank(p, end), end, &name_len);
	if (name_len == 0)
		return true;
	p = name + name_len;
	/* A '(' right after the name makes a function-like macro. */
	function_like = !undef && p < end && *p == '(';
	if (function_like) {
		params = p + 1;
		p = skip_parens(p, end);
	}
	body = skip_blank(p, end);
	while (end > body && isspace((unsigned char)end[-1]))
		end--;
	kind = undef ? KIND_NONE : body_kind(m, body, end, function_like, &where);
	if (macro_is_word(name, name_len, "kernel") || macro_is_word(name, name_len, "__kernel"))
		kind = KIND_NONE;
	e = macro_entry(m, name, name_len);
	if (!e || !set_macro(m, e, undef ? TRI_NO : TRI_YES, kind, function_like,
			     undef ? NULL : body, (size_t)(end - body), where))
		return false;
	free(e->params);
	e->params = NULL;
	/* A kernel's name comes out of it: the rewrite expands it (kernelexpand.h). */
	if (params && e->body && p > params)
		e->params = strndup(params, (size_t)(p - 1 - params));
	return !params || !e->body || e->params;
}

static char *
place(const char *file, unsigned line)
{
	size_t n = strlen(file) + 16;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s:%u", file, line);
	return s;
}

/* `#ifdef`, `#ifndef` (negate) and `#elifdef`, `#elifndef`: is the name at p defined? */
static enum tri
name_defined(struct kernel_macros *m, const char *p, const char *end, bool negate)
{
	const char *body, *body_end, *name;
	size_t len;
	enum tri d;

	name = ident(skip_blank(p, end), end, &len);
	if (len == 0)
		return TRI_MAYBE;
	d = macro_lookup(m, name, len, &body, &body_end);
	return negate ? tri_not(d) : d;
}

/* Open a conditional whose first side's condition is `v`. */
static bool
open_cond(struct kernel_macros *m, enum tri v, const char *file, unsigned line)
{
	enum tri outer = region_live(m);
	struct km_cond *c;

	if (m->depth == m->cond_cap) {
		size_t cap = m->cond_cap ? m->cond_cap * 2 : 16;
		struct km_cond *grown = realloc(m->conds, cap * sizeof(*grown));

		if (!grown)
			return false;
		m->conds = grown;
		m->cond_cap = cap;
	}
	c = &m->conds[m->depth++];
	*c = (struct km_cond){ .outer = outer, .taken = outer == TRI_NO ? TRI_YES : v };
	c->live = tri_and(outer, v);
	if (c->live == TRI_MAYBE && !(c->where = place(file, line)))
		return false;
	return true;
}

/* The next side of the open conditional, with condition `v` (#else: YES). */
static bool
next_side(struct kernel_macros *m, enum tri v, const char *file, unsigned line)
{
	struct km_cond *c = &m->conds[m->depth - 1];
	enum tri own = tri_and(tri_not(c->taken), v);

	c->taken = tri_or(c->taken, v);
	c->live = tri_and(c->outer, own);
	free(c->guard);
	c->guard = NULL;
	if (c->live == TRI_MAYBE && !c->where && !(c->where = place(file, line)))
		return false;
	return true;
}

static void
close_cond(struct kernel_macros *m)
{
	struct km_cond *c = &m->conds[--m->depth];

	free(c->where);
	free(c->guard);
}

/* `#ifndef X` where the compiler might define X: an include guard where
 * `#define X` comes next (a compiler's X would leave the header out, and
 * its declarations with it: the build fails, nothing runs wrong). */
static bool
note_guard(struct kernel_macros *m, const char *p, const char *end)
{
	struct km_cond *c = &m->conds[m->depth - 1];
	const char *name;
	size_t len;

	name = ident(skip_blank(p, end), end, &len);
	if (c->live != TRI_MAYBE || len == 0 || macro_find(m, name, len))
		return true;
	c->guard = strndup(name, len);
	return c->guard != NULL;
}

/* The directive after `#ifndef X`: if it is `#define X`, X was not defined. */
static void
settle_guard(struct kernel_macros *m, const char *word, size_t len, const char *p,
	     const char *end)
{
	struct km_cond *c = m->depth ? &m->conds[m->depth - 1] : NULL;
	const char *name;
	size_t name_len;

	if (!c || !c->guard)
		return;
	name = ident(skip_blank(p, end), end, &name_len);
	if (macro_is_word(word, len, "define") && macro_is_word(name, name_len, c->guard)) {
		c->live = c->outer;
		c->taken = TRI_YES;
		if (c->live != TRI_MAYBE) {
			free(c->where);
			c->where = NULL;
		}
	}
	free(c->guard);
	c->guard = NULL;
}

/* The condition of #if, #ifdef, #elif ... at p; not looked at where it cannot matter. */
static enum tri
condition(struct kernel_macros *m, const char *word, size_t len, const char *p, const char *end)
{
	if (macro_is_word(word, len, "ifdef") || macro_is_word(word, len, "elifdef"))
		return name_defined(m, p, end, false);
	if (macro_is_word(word, len, "ifndef") || macro_is_word(word, len, "elifndef"))
		return name_defined(m, p, end, true);
	return pp_eval(p, end, macro_lookup, m);
}

static bool
conditional(struct kernel_macros *m, const char *word, size_t len, const char *p,
	    const char *end, const char *file, unsigned line)
{
	bool opens = macro_is_word(word, len, "if") || macro_is_word(word, len, "ifdef") ||
		     macro_is_word(word, len, "ifndef");
	struct km_cond *c = m->depth ? &m->conds[m->depth - 1] : NULL;

	if (opens) {
		enum tri v = region_live(m) == TRI_NO ? TRI_NO : condition(m, word, len, p, end);

		if (!open_cond(m, v, file, line))
			return false;
		return !macro_is_word(word, len, "ifndef") || note_guard(m, p, end);
	}
	if (!c)
		return true;  /* unbalanced: the compiler says so */
	if (macro_is_word(word, len, "endif")) {
		close_cond(m);
		return true;
	}
	if (macro_is_word(word, len, "else"))
		return next_side(m, TRI_YES, file, line);
	if (c->outer == TRI_NO || c->taken == TRI_YES)
		return next_side(m, TRI_NO, file, line);
	return next_side(m, condition(m, word, len, p, end), file, line);
}

clwarp_status
kernel_macros_directive(struct kernel_macros *m, const char *text, const char *end,
			const char *file, unsigned line)
{
	const char *p = skip_blank(text, end), *word;
	size_t len;
	bool ok = true;

	word = ident(p, end, &len);
	p += len;
	settle_guard(m, word, len, p, end);
	if (macro_is_word(word, len, "define") || macro_is_word(word, len, "undef")) {
		if (region_live(m) != TRI_NO)
			ok = define(m, p, end, len == 5);
	} else if (macro_is_word(word, len, "if") || macro_is_word(word, len, "ifdef") ||
		   macro_is_word(word, len, "ifndef") || macro_is_word(word, len, "elif") ||
		   macro_is_word(word, len, "elifdef") || macro_is_word(word, len, "elifndef") ||
		   macro_is_word(word, len, "else") || macro_is_word(word, len, "endif")) {
		ok = conditional(m, word, len, p, end, file, line);
	}
	if (!ok || m->failed) {
		m->failed = true;
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	return CLWARP_OK;
}

bool
kernel_macros_dead(const struct kernel_macros *m)
{
	return region_live(m) == TRI_NO;
}

clwarp_status
kernel_macros_use(const struct kernel_macros *m, const char *name, size_t len, char next,
		  const char *file, unsigned line, enum kernel_use *use)
{
	const struct km_macro *e = macro_find(m, name, len);

	*use = KERNEL_USE_NONE;
	if (macro_is_word(name, len, "kernel") || macro_is_word(name, len, "__kernel") ||
	    (!e && macro_is_word(name, len, "__global__"))) {
		*use = KERNEL_USE_WORD;
		return CLWARP_OK;
	}
	if (!e || e->defined == TRI_NO || e->kind == KIND_NONE)
		return CLWARP_OK;
	if (e->kind == KIND_MAYBE)
		return set_error(CLWARP_ERROR_BUILD,
				 "%s:%u: `%.*s` is a kernel on one side of the conditional at %s and not on the "
				 "other, and the source alone does not decide which side the compiler takes; "
				 "the engine must see each kernel to give it the warp width, so it does not build "
				 "this: define the macro alike on both sides, or test what a -D option decides",
				 file, line, (int)len, name, e->where ? e->where : "?");
	if (e->kind == KIND_WHOLE)
		return set_error(CLWARP_ERROR_BUILD,
				 "%s:%u: the kernel macro `%.*s` holds the kernel's parameter list; the engine "
				 "adds to each kernel's parameters and must see them: end the macro before the "
				 "parameter list's `(`",
				 file, line, (int)len, name);
	if (e->kind == KIND_WORD)
		*use = KERNEL_USE_WORD;
	else if (next == '(')
		*use = KERNEL_USE_CALL;
	return CLWARP_OK;
}

/* Define `name` (len bytes) to `body` (NULL: a value not known), surely. */
static bool
predefine(struct kernel_macros *m, const char *name, size_t len, const char *body,
	  size_t body_len)
{
	struct km_macro *e = macro_entry(m, name, len);
	const char *where = NULL;

	if (!e)
		return false;
	if (!body)
		return set_macro(m, e, TRI_YES, KIND_NONE, false, NULL, 0, NULL);
	return set_macro(m, e, TRI_YES, body_kind(m, body, body + body_len, false, &where), false,
			 body, body_len, where);
}

/* One -D NAME[=VALUE] or -U NAME of the build options, at p. */
static bool
option(struct kernel_macros *m, const char *p, size_t n, bool undef)
{
	const char *eq = memchr(p, '=', n);
	struct km_macro *e;

	if (undef) {
		e = macro_entry(m, p, n);
		return e && set_macro(m, e, TRI_NO, KIND_NONE, false, NULL, 0, NULL);
	}
	if (!eq)
		return predefine(m, p, n, "1", 1);
	return predefine(m, p, (size_t)(eq - p), eq + 1, n - (size_t)(eq - p) - 1);
}

clwarp_status
kernel_macros_init(struct kernel_macros *m, const char *options)
{
	static const char *const versions[] = { "CL_VERSION_1_0", "100", "CL_VERSION_1_1", "110",
						"CL_VERSION_1_2", "120" };
	bool ok = predefine(m, "__OPENCL_VERSION__", 18, NULL, 0) &&
		  predefine(m, "__OPENCL_C_VERSION__", 20, NULL, 0);

	for (size_t i = 0; ok && i < sizeof(versions) / sizeof(versions[0]); i += 2)
		ok = predefine(m, versions[i], strlen(versions[i]), versions[i + 1], 3);
	for (const char *p = options; ok && p && *p;) {
		bool d, u;
		size_t n;

		while (isspace((unsigned char)*p))
			p++;
		d = p[0] == '-' && p[1] == 'D';
		u = p[0] == '-' && p[1] == 'U';
		if (d || u) {
			p += 2;
			while (isspace((unsigned char)*p))
				p++;
		}
		n = strcspn(p, " \t\n\r\f\v");
		if ((d || u) && n > 0 && is_ident_start(*p))
			ok = option(m, p, n, u);
		p += n;
	}
	if (!ok)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	return CLWARP_OK;
}

void
kernel_macros_free(struct kernel_macros *m)
{
	for (size_t i = 0; i < m->count; i++) {
		free(m->macros[i].name);
		free(m->macros[i].body);
		free(m->macros[i].where);
		free(m->macros[i].params);
	}
	while (m->depth)
		close_cond(m);
	free(m->macros);
	free(m->slots);
	free(m->conds);
	*m = (struct kernel_macros){ 0 };
}
