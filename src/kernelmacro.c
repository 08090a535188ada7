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
#include "macrocond.h"
#include "macrotable.h"
#include "ppexpr.h"
#include "sourcewords.h"

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
	bool args;

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
	if (e->kind == KIND_MAYBE || e->kind == KIND_WHOLE)
		return e->kind;
	/* Another function-like kernel macro: given its arguments here or at the use. */
	args = e->kind == KIND_CALL && p < end && *p == '(';
	if (args)
		p = skip_parens(p, end);
	if (holds_params(p, end))
		return KIND_WHOLE;
	if (function_like || (e->kind == KIND_CALL && !args))
		return KIND_CALL;
	return args || e->kind == KIND_EXPAND ? KIND_EXPAND : KIND_WORD;
}

/* Set e from a #define (defined = YES) or #undef (NO); the conditional
 * around remembers what it was (macrocond.h). */
static bool
set_macro(struct kernel_macros *m, struct km_macro *e, enum tri defined, enum km_kind kind,
	  bool function_like, const char *body, size_t body_len, const char *where)
{
	char *copy = body ? strndup(body, body_len) : NULL, *w = NULL;

	if ((body && !copy) || !macro_cond_save(m, (size_t)(e - m->macros)) ||
	    (kind == KIND_MAYBE && where && !(w = strdup(where)))) {
		free(copy);
		return false;
	}
	macro_state_free(e);
	e->body = copy;
	e->where = w;
	e->defined = defined;
	e->function_like = function_like;
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
	/* A kernel's name comes out of it: the rewrite expands it (kernelexpand.h).
	 * A parameter list without its `)` keeps none: the compiler says why. */
	if (params && e->body && p > params) {
		e->params = strndup(params, (size_t)(p - 1 - params));
		if (!e->params)
			return false;
	}
	return true;
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
	if (macro_is_word(word, len, "if") || macro_is_word(word, len, "ifdef") ||
	    macro_is_word(word, len, "ifndef")) {
		enum tri v = macro_cond_live(m) == TRI_NO ? TRI_NO : condition(m, word, len, p, end);
		const char *name;
		size_t name_len;

		if (!macro_cond_open(m, v, file, line))
			return false;
		name = ident(skip_blank(p, end), end, &name_len);
		return !macro_is_word(word, len, "ifndef") || macro_cond_note_guard(m, name, name_len);
	}
	if (macro_is_word(word, len, "endif"))
		return macro_cond_close(m);
	if (macro_is_word(word, len, "else"))
		return macro_cond_next(m, TRI_YES, file, line);
	if (!macro_cond_elif_matters(m))
		return macro_cond_next(m, TRI_NO, file, line);
	return macro_cond_next(m, condition(m, word, len, p, end), file, line);
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
	if (macro_is_word(word, len, "define")) {
		const char *name;
		size_t name_len;

		name = ident(skip_blank(p, end), end, &name_len);
		macro_cond_settle_guard(m, true, name, name_len);
	} else {
		macro_cond_settle_guard(m, false, NULL, 0);
	}
	if (macro_is_word(word, len, "define") || macro_is_word(word, len, "undef")) {
		if (macro_cond_live(m) != TRI_NO)
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
	return macro_cond_live(m) == TRI_NO;
}

clwarp_status
kernel_macros_use(const struct kernel_macros *m, const char *name, size_t len, const char *file,
		  unsigned line, enum kernel_use *use)
{
	const struct km_macro *e = macro_find(m, name, len);
	const char *next = name + len;

	*use = KERNEL_USE_NONE;
	if (kernel_macros_dead(m))
		return CLWARP_OK;
	while (isspace((unsigned char)*next))
		next++;
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
	else if (e->kind == KIND_EXPAND || *next == '(')
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
	macro_cond_free(m);
	for (size_t i = 0; i < m->count; i++) {
		free(m->macros[i].name);
		macro_state_free(&m->macros[i]);
	}
	free(m->macros);
	free(m->slots);
	*m = (struct kernel_macros){ 0 };
}
