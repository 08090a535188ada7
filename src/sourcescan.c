/* The token scan of the source expansion: comments and literals copied,
 * identifiers noted and rewritten (kernel signatures, CUDA's __shared__
 * and functional casts, kernel macros), punctuation tracked. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "sourcescan.h"

#include <stdint.h>
#include <string.h>

#include "cudarewrite.h"
#include "kernelexpand.h"
#include "sourcewords.h"

/* A comment, string or character literal at sc->p, copied; false if
 * there is none. */
bool
expand_comment_or_literal(struct expander *ex, struct scan *sc)
{
	const char *p = sc->p, *start = p;
	char c = *p;

	if (c == '/' && p[1] == '/') {
		while (*p && *p != '\n')
			p++;
	} else if (c == '/' && p[1] == '*') {
		const char *end = strstr(p + 2, "*/");

		p = end ? end + 2 : p + strlen(p);
		for (const char *q = start; q < p; q++)
			sc->line += *q == '\n';
	} else if (c == '"' || c == '\'') {
		p++;
		while (*p && *p != c && *p != '\n') {
			if (*p == '\\' && p[1])
				p++;
			p++;
		}
		if (*p == c)
			p++;
		sc->prev_is_name = false;
		sc->last = c;
	} else {
		return false;
	}
	strbuf_append(ex->out, start, (size_t)(p - start));
	sc->p = p;
	return true;
}

/* A kernel begins (`kernel`, or a kernel macro). A kernel cannot be
 * static: the `static` before it goes. */
static void
kernel_begins(struct expander *ex, struct scan *sc)
{
	ex->kernel_count++;
	sc->ks = KS_AFTER_KERNEL;
	if (sc->static_at != SIZE_MAX)
		memset(ex->out->data + sc->static_at, ' ', 6);
}

/* What one identifier says of the program: warp calls, the extension
 * types it names, block votes. */
static void
note_word(struct expander *ex, const char *start, size_t len)
{
	if (len > 5 && strncmp(start, "warp_", 5) == 0)
		ex->uses_warp = true;
	/* <clwarp/cuda.h>'s calls are warp_* ones behind macros. */
	if (ex->cuda && !ex->serving && source_is_cuda_warp_call(start, len))
		ex->uses_warp = true;
	ex->types_named |= source_type_bits(start, len);
	ex->block_sync |= !ex->serving && source_is_block_sync(start, len);
}

/* An identifier at sc->p: copied, or rewritten (CUDA's __shared__ and
 * functional casts, a kernel's `static`, kernel macros). */
clwarp_status
expand_word(struct expander *ex, struct scan *sc)
{
	struct strbuf *out = ex->out;
	const char *start = sc->p, *q;
	size_t len;
	bool cast;
	enum kernel_use use = KERNEL_USE_NONE;
	clwarp_status status;

	while (is_ident_char(*sc->p))
		sc->p++;
	len = (size_t)(sc->p - start);
	if (ex->cuda && !ex->serving && sc->brace_depth > 0 &&
	    cuda_shared_word(out, start, &sc->p, sc->in_kernel ? sc->brace_depth : 0, sc->stmt_at, &sc->line)) {
		ex->types_named |= source_words_in(start, sc->p, &ex->block_sync);
		sc->last = ';';
		return CLWARP_OK;
	}
	/* A kernel cannot be static: the one before or after `kernel` goes. */
	if (len == 6 && strncmp(start, "static", 6) == 0 && sc->paren_depth == 0 && sc->brace_depth == 0) {
		sc->static_at = out->len;
		if (sc->ks == KS_AFTER_KERNEL) {
			strbuf_puts(out, "      ");
			return CLWARP_OK;
		}
	}
	for (q = sc->p; *q == ' ' || *q == '\t'; q++)
		;
	if (sc->paren_depth == 0 && sc->brace_depth == 0 && sc->ks == KS_NONE) {
		status = kernel_macros_use(&ex->macros, start, len, sc->name, sc->line, &use);
		/* A function-like kernel macro: expanded as far as its `kernel`. */
		if (status == CLWARP_OK && use == KERNEL_USE_CALL)
			status = kernel_expand(&ex->macros, start, ex->rewrite->reqd_sub_group_size,
					       sc->name, &sc->line, out, &sc->p);
		if (status != CLWARP_OK)
			return status;
		if (use == KERNEL_USE_CALL) {
			kernel_begins(ex, sc);
			sc->prev_is_name = true;
			return CLWARP_OK;
		}
	}
	/* CUDA's C++ functional cast T(x) is C's (T)(x) where C has no T
	 * before '(': after an operator, `=`, `return`, `?`, a
	 * conditional's `:` or `[` (not after `(` or `,`, where it
	 * may be a declarator). No C program changes meaning. */
	cast = ex->cuda && *q == '(' && strchr("=?+-*/%&|^<>!~[", sc->last) &&
	       source_is_cast_type(start, len);
	strbuf_puts(out, cast ? "(" : "");
	strbuf_append(out, start, len);
	strbuf_puts(out, cast ? ")" : "");
	sc->last = len == 6 && strncmp(start, "return", 6) == 0 ? '=' : 'a';
	note_word(ex, start, len);
	/* `kernel`, `__kernel`, object-like macros for them (kernelmacro.h),
	 * and __global__: CUDA's kernel qualifier, `kernel` in <clwarp/cuda.h>. */
	if (use == KERNEL_USE_WORD) {
		kernel_begins(ex, sc);
		if (ex->rewrite->reqd_sub_group_size)
			strbuf_printf(out, " __attribute__((intel_reqd_sub_group_size(%u)))",
				      ex->rewrite->reqd_sub_group_size);
		sc->prev_is_name = false;
		return CLWARP_OK;
	}
	sc->prev_is_name = !(len == 13 && strncmp(start, "__attribute__", 13) == 0) &&
			   !(len == 11 && strncmp(start, "__attribute", 11) == 0) &&
			   !(len == 17 && strncmp(start, "__launch_bounds__", 17) == 0);
	return CLWARP_OK;
}

/* A kernel's parameter list has closed: note one without parameters,
 * and append the hidden scratch parameter where it is wanted. */
static void
kernel_params_end(struct expander *ex, struct scan *sc)
{
	struct strbuf *out = ex->out;

	if (!ex->scratch && source_params_are_empty(out->data + sc->params_start))
		ex->kernel_without_params = true;
	if (ex->scratch) {
		if (source_params_are_empty(out->data + sc->params_start)) {
			strbuf_truncate(out, sc->params_start);
			strbuf_puts(out, SOURCE_SCRATCH_PARAM);
		} else {
			strbuf_puts(out, ", " SOURCE_SCRATCH_PARAM);
		}
	}
	sc->ks = KS_NONE;
	sc->kernel_sig = true;
}

/* One other character at sc->p (punctuation, an operator, a digit),
 * copied, and where it leaves the parentheses, braces and statements. */
void
expand_punct(struct expander *ex, struct scan *sc)
{
	struct strbuf *out = ex->out;
	char c = *sc->p;

	if (c == '(') {
		strbuf_append(out, sc->p++, 1);
		if (sc->ks == KS_AFTER_KERNEL && sc->paren_depth == 0 && sc->prev_is_name) {
			sc->ks = KS_IN_PARAMS;
			sc->params_start = out->len;
		}
		sc->paren_depth++;
	} else {
		if (c == ')' && --sc->paren_depth == 0 && sc->ks == KS_IN_PARAMS)
			kernel_params_end(ex, sc);
		if (c == '{' && sc->brace_depth++ == 0) {
			sc->in_kernel = sc->kernel_sig;
			sc->kernel_sig = false;
			sc->static_at = SIZE_MAX;
		}
		if (c == '}') {
			sc->brace_depth--;
			sc->in_kernel = sc->in_kernel && sc->brace_depth > 0;
		}
		/* A kernel prototype without a body ends here. */
		if (c == ';' && sc->paren_depth == 0 && sc->ks == KS_AFTER_KERNEL)
			sc->ks = KS_NONE;
		strbuf_append(out, sc->p++, 1);
	}
	/* A conditional's `:` counts as its `?`; a label's or a
	 * bit-field's does not. */
	if (c == '?')
		sc->open_ternaries++;
	if (c == ';' || c == '{' || c == '}')
		sc->open_ternaries = 0;
	sc->last = c;
	if (c == ':' && sc->open_ternaries > 0) {
		sc->open_ternaries--;
		sc->last = '?';
	}
	sc->prev_is_name = false;
	sc->static_at = (c == ';' || c == '}') && sc->brace_depth == 0 ? SIZE_MAX : sc->static_at;
	sc->kernel_sig = sc->kernel_sig && !((c == ';' || c == '}') && sc->brace_depth == 0);
	if ((c == ';' || c == '{' || c == '}') && sc->brace_depth == 1 && sc->paren_depth == 0)
		sc->stmt_at = out->len;
}
