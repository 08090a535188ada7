/* The warp-flow rewrite's reading and writing of statements. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "flowtext.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool
flow_is(const struct flow *f, size_t k, const char *word)
{
	return k < f->n && ws_tok_is(f->c, &f->t[k], word);
}

bool
flow_ch(const struct flow *f, size_t k, char ch)
{
	return k < f->n && f->t[k].len == 1 && f->c->text[f->t[k].off] == ch;
}

size_t
flow_match(const struct flow *f, size_t k)
{
	return ws_match(f->t, k, f->n);
}

bool
flow_prefix(const struct flow *f, size_t k)
{
	return (flow_is(f, k, "_Pragma") || flow_is(f, k, "__attribute__")) && k + 1 < f->n &&
	       f->t[k + 1].kind == T_LPAREN;
}

size_t
flow_end_off(const struct flow *f, size_t k)
{
	return f->t[k].off + f->t[k].len;
}

static size_t
stmt_end(const struct flow *f, size_t k, size_t last)
{
	size_t e, depth = 0;

	if (k >= last)
		return last - 1;
	if (flow_prefix(f, k))
		return flow_stmt_end(f, ws_match(f->t, k + 1, last) + 1, last);
	if (f->t[k].kind == T_LBRACE)
		return ws_match(f->t, k, last);
	if (flow_is(f, k, "if")) {
		e = flow_stmt_end(f, ws_match(f->t, k + 1, last) + 1, last);
		return e + 1 < last && flow_is(f, e + 1, "else") ? flow_stmt_end(f, e + 2, last) : e;
	}
	if (flow_is(f, k, "for") || flow_is(f, k, "while") || flow_is(f, k, "switch"))
		return flow_stmt_end(f, ws_match(f->t, k + 1, last) + 1, last);
	if (flow_is(f, k, "do")) {
		e = flow_stmt_end(f, k + 1, last);
		return e + 2 < last ? ws_match(f->t, e + 2, last) + 1 : last - 1;
	}
	for (e = k; e < last; e++) {
		uint8_t kind = f->t[e].kind;

		if (kind == T_LPAREN || kind == T_LBRACE)
			depth++;
		else if ((kind == T_RPAREN || kind == T_RBRACE) && depth > 0)
			depth--;
		else if (kind == T_RBRACE)
			return e - 1;
		else if (kind == T_SEMI && depth == 0)
			return e;
	}
	return last - 1;
}

/* The last token of the statement that starts at token k, before last: at
 * least k, so that a walk over malformed text (a stray '}', an unclosed
 * parenthesis) still moves on. */
size_t
flow_stmt_end(const struct flow *f, size_t k, size_t last)
{
	size_t e = stmt_end(f, k, last);

	return k < last && e < k ? k : e;
}

static bool
word_in(const struct flow *f, size_t k, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (flow_is(f, k, words[i]))
			return true;
	}
	return false;
}

/* Barriers and work-group collectives: every work-item must reach them. */
static bool
is_barrier(const struct flow *f, size_t k)
{
	static const char *const words[] = { "barrier", "work_group_barrier", "__syncthreads",
					     "sub_group_barrier" };
	const struct tok *t = &f->t[k];

	return word_in(f, k, words, ARRAY_LENGTH(words)) ||
	       (t->len > 11 && memcmp(f->c->text + t->off, "work_group_", 11) == 0);
}

bool
flow_is_helper(struct flow *f, size_t k)
{
	struct tok *t = &f->t[k];

	if (t->kind != T_IDENT || k + 1 >= f->n || f->t[k + 1].kind != T_LPAREN)
		return false;
	if (t->sym < 0)
		t->sym = ws_sym_find(f->c, t);
	return flow_helper_sym(f, t->sym);
}

bool
flow_is_wcall(struct flow *f, size_t k)
{
	static const char *const pure[] = { "warp_lane_id", "warp_size", "warp_id", "warp_count" };
	struct tok *t = &f->t[k];

	if (t->kind != T_IDENT || k + 1 >= f->n || f->t[k + 1].kind != T_LPAREN ||
	    (k > 0 && f->t[k - 1].kind == T_MEMBER) || word_in(f, k, pure, ARRAY_LENGTH(pure)))
		return false;
	if (is_barrier(f, k) || ws_direct_use(f->c, t))
		return true;
	if (t->sym < 0)
		t->sym = ws_sym_find(f->c, t);
	return t->sym >= 0 && f->c->syms[t->sym].uses && !(f->c->syms[t->sym].kinds & SYM_KERNEL);
}

/* A break or continue of a loop around t[a..b] (not of one inside it). */
static bool
own_jump(const struct flow *f, size_t a, size_t b)
{
	for (size_t k = a; k <= b; k++) {
		if (flow_is(f, k, "for") || flow_is(f, k, "while") || flow_is(f, k, "do") ||
		    flow_is(f, k, "switch"))
			k = flow_stmt_end(f, k, b + 1);
		else if (flow_is(f, k, "break") || flow_is(f, k, "continue"))
			return true;
	}
	return false;
}

void
flow_classify(struct flow *f, size_t a, size_t b, struct flow_info *info)
{
	memset(info, 0, sizeof(*info));
	for (size_t k = a; k <= b; k++) {
		info->wcall |= flow_is_wcall(f, k);
		info->ret |= flow_is(f, k, "return");
		info->other |= flow_is(f, k, "switch") || flow_is(f, k, "goto");
		info->condop |= flow_ch(f, k, '?') ||
				(k + 1 <= b && ((flow_ch(f, k, '&') && flow_ch(f, k + 1, '&')) ||
						(flow_ch(f, k, '|') && flow_ch(f, k + 1, '|'))));
	}
	info->jump = own_jump(f, a, b);
	info->other &= info->wcall;
}

static bool
type_word(const struct flow *f, size_t k)
{
	static const char *const words[] = { "const", "volatile", "unsigned", "signed", "struct",
		"union", "enum", "private", "__private", "bool", "char", "uchar", "short", "ushort",
		"int", "uint", "long", "ulong", "float", "double", "half", "size_t", "ptrdiff_t",
		"intptr_t", "uintptr_t", "__typeof__", "typeof", "uint2", "uint4", "int2", "int4",
		"float2", "float3", "float4", "double2", "double4", "ulong2", "long2" };
	const struct tok *t = &f->t[k];

	if (word_in(f, k, words, ARRAY_LENGTH(words)))
		return true;
	return t->kind == T_IDENT && t->len > 2 && memcmp(f->c->text + t->off + t->len - 2, "_t", 2) == 0;
}

enum flow_decl
flow_declaration(const struct flow *f, size_t a, size_t e)
{
	static const char *const keep[] = { "__shared__", "static", "typedef", "extern" };
	static const char *const space[] = { "local", "__local", "constant", "__constant" };
	static const char *const quals[] = { "global", "__global", "private", "__private", "const",
		"volatile", "restrict", "__restrict", "generic", "__generic", "local", "__local",
		"constant", "__constant" };
	size_t k = a;
	bool star = false;

	for (size_t j = a; j <= e; j++)
		star |= flow_ch(f, j, '*');
	if (word_in(f, a, keep, ARRAY_LENGTH(keep)) ||
	    (word_in(f, a, space, ARRAY_LENGTH(space)) && !star))
		return FLOW_KEEP;
	while (k < e && word_in(f, k, quals, ARRAY_LENGTH(quals)))
		k++;
	if (f->t[k].kind != T_IDENT || flow_is(f, k, "return") || e <= k + 1)
		return FLOW_NOT_DECL;
	if (type_word(f, k))
		return FLOW_DECL;
	/* `T name`, `T *name`: a type the program names. */
	for (k++; k < e && (flow_ch(f, k, '*') || word_in(f, k, quals, ARRAY_LENGTH(quals))); k++)
		;
	if (f->t[k].kind != T_IDENT)
		return FLOW_NOT_DECL;
	k++;
	return f->t[k].kind == T_ASSIGN || f->t[k].kind == T_SEMI || f->t[k].kind == T_COMMA ||
	       flow_ch(f, k, '[') ? FLOW_DECL : FLOW_NOT_DECL;
}

bool
flow_zero_init(const struct flow *f, size_t a, size_t e)
{
	static const char *const quals[] = { "global", "__global", "private", "__private", "const",
		"volatile", "restrict", "__restrict", "generic", "__generic", "local", "__local",
		"constant", "__constant", "unsigned", "signed" };
	size_t k = a;

	for (size_t j = a; j <= e; j++) {
		if (flow_ch(f, j, '*'))
			return true;
	}
	while (k < e && word_in(f, k, quals, ARRAY_LENGTH(quals)))
		k++;
	return type_word(f, k) && !flow_is(f, k, "struct") && !flow_is(f, k, "union") &&
	       !flow_is(f, k, "enum") && !flow_is(f, k, "__typeof__") && !flow_is(f, k, "typeof");
}

bool
flow_unsafe(const struct flow *f, size_t a, size_t b)
{
	for (size_t k = a; k <= b; k++) {
		const struct tok *t = &f->t[k];

		if (flow_ch(f, k, '[') || (t->kind == T_MEMBER && t->len == 2))
			return true;
		if (flow_ch(f, k, '*') && (k == a || (f->t[k - 1].kind != T_IDENT &&
						      f->t[k - 1].kind != T_RPAREN &&
						      !flow_ch(f, k - 1, ']') &&
						      !isdigit((unsigned char)f->c->text[f->t[k - 1].off]))))
			return true;
		if (t->kind == T_IDENT && k + 1 <= b && f->t[k + 1].kind == T_LPAREN &&
		    !(t->len > 4 && memcmp(f->c->text + t->off, "get_", 4) == 0) && !type_word(f, k))
			return true;
	}
	return false;
}

/* Raw text between two offsets as one line: comments dropped, literals kept. */
static void
put_gap(const struct flow *f, struct strbuf *sb, size_t from, size_t to)
{
	const char *p = f->c->text + from, *end = f->c->text + to;

	while (p < end) {
		if (*p == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (*p == '/' && p + 1 < end && p[1] == '*') {
			const char *q = strstr(p + 2, "*/");

			p = q && q + 2 <= end ? q + 2 : end;
			strbuf_puts(sb, " ");
		} else if (*p == '"' || *p == '\'') {
			const char *q = p + 1;

			while (q < end && *q != *p && *q != '\n')
				q += *q == '\\' && q + 1 < end ? 2 : 1;
			q = q < end ? q + 1 : end;
			strbuf_append(sb, p, (size_t)(q - p));
			p = q;
		} else {
			strbuf_append(sb, *p == '\n' || *p == '\\' ? " " : p, 1);
			p++;
		}
	}
}

void
flow_compose(struct flow *f, struct strbuf *sb, size_t a, size_t b, const struct hoist *hs,
	     size_t nh, const size_t *guards, size_t ng)
{
	for (size_t k = a; k <= b; k++) {
		size_t h, g;

		if (k > a)
			put_gap(f, sb, flow_end_off(f, k - 1), f->t[k].off);
		for (h = 0; h < nh && hs[h].a != k; h++)
			;
		for (g = 0; g < ng && guards[2 * g] != k; g++)
			;
		if (h < nh) {
			strbuf_printf(sb, "__clwarp_t%u", hs[h].id);
			k = hs[h].b;
		} else if (g < ng) {
			size_t e = guards[2 * g + 1];

			strbuf_puts(sb, "(" FLOW_ON " ? (");
			flow_compose(f, sb, k, e, hs, nh, NULL, 0);
			strbuf_puts(sb, ") : (__typeof__(");
			flow_compose(f, sb, k, e, hs, nh, NULL, 0);
			strbuf_puts(sb, "))0)");
			k = e;
		} else {
			strbuf_append(sb, f->c->text + f->t[k].off, f->t[k].len);
		}
		if (f->on_after[k])
			strbuf_puts(sb, ", " FLOW_ON);
	}
}

static int
by_close(const void *x, const void *y)
{
	const struct hoist *a = x, *b = y;

	return a->b < b->b ? -1 : a->b > b->b;
}

/* Is t[k] a macro whose body is statements (a `;`, or it starts with a keyword of
 * one, or a brace): its warp calls cannot be moved out of an expression. */
bool
flow_statement_macro(const struct flow *f, size_t k)
{
	static const char *const starts[] = { "for", "if", "while", "do", "switch", "return" };
	int32_t s = f->t[k].sym;

	for (size_t m = 0; s >= 0 && m < f->c->nmacros; m++) {
		const struct macro *mm = &f->c->macros[m];
		const struct tok *b = &f->c->mac.v[mm->body];

		if (mm->sym != s || mm->body >= mm->end)
			continue;
		for (size_t i = 0; i < ARRAY_LENGTH(starts); i++) {
			if (ws_tok_is(f->c, b, starts[i]))
				return true;
		}
		for (uint32_t i = mm->body; i < mm->end; i++) {
			if (f->c->mac.v[i].kind == T_SEMI || f->c->mac.v[i].kind == T_LBRACE)
				return true;
		}
	}
	return false;
}

void
flow_fail_macro(struct flow *f, size_t k)
{
	ws_fail(f->c, &f->t[k], "macro `%.*s` makes warp calls in statements of its own, and this "
		"use of it runs where not every work-item of the work-group may (under a branch, "
		"after a return, in a loop whose trips differ): warps built from work-group "
		"barriers need every work-item at every warp call, so make the macro a function",
		(int)f->t[k].len, f->c->text + f->t[k].off);
}

struct hoist *
flow_calls(struct flow *f, size_t a, size_t b, size_t *n)
{
	struct hoist *hs;
	size_t count = 0;

	*n = 0;
	for (size_t k = a; k <= b; k++)
		count += flow_is_wcall(f, k);
	if (count == 0 || !(hs = calloc(count, sizeof(*hs)))) {
		f->c->failed |= count > 0;
		return NULL;
	}
	for (size_t k = a; k <= b; k++) {
		if (flow_is_wcall(f, k) && flow_statement_macro(f, k))
			flow_fail_macro(f, k);
		/* A call whose `(` is never closed is the compiler's to report. */
		if (flow_is_wcall(f, k) && flow_match(f, k + 1) <= b) {
			hs[*n].a = k;
			hs[*n].b = flow_match(f, k + 1);
			hs[(*n)++].id = f->ids++;
		}
	}
	qsort(hs, *n, sizeof(*hs), by_close);
	return hs;
}

size_t
flow_unsafe_args(const struct flow *f, size_t a, size_t b, size_t *guards, size_t max)
{
	size_t ng = 0, start = a + 2, depth = 0;

	for (size_t k = a + 2; k <= b && ng < max; k++) {
		uint8_t kind = f->t[k].kind;

		if (kind == T_LPAREN || kind == T_LBRACE || flow_ch(f, k, '['))
			depth++;
		else if ((kind == T_RPAREN || kind == T_RBRACE || flow_ch(f, k, ']')) && depth > 0)
			depth--;
		else if ((kind == T_COMMA && depth == 0) || k == b) {
			if (k > start && flow_unsafe(f, start, k - 1)) {
				guards[2 * ng] = start;
				guards[2 * ng++ + 1] = k - 1;
			}
			start = k + 1;
		}
	}
	return ng;
}

void
flow_put_hoists(struct flow *f, struct strbuf *sb, struct hoist *hs, size_t nh)
{
	for (size_t i = 0; i < nh; i++) {
		size_t guards[16];
		size_t ng = flow_unsafe_args(f, hs[i].a, hs[i].b, guards, ARRAY_LENGTH(guards) / 2);
		struct strbuf call = { 0 };

		flow_compose(f, &call, hs[i].a, hs[i].b, hs, i, guards, ng);
		strbuf_printf(sb, "__typeof__(%s) __clwarp_t%u = %s; ", call.data ? call.data : "",
			      hs[i].id, call.data ? call.data : "");
		f->c->failed |= call.failed;
		strbuf_free(&call);
	}
	f->used = true;
}

void
flow_put_newlines(const struct flow *f, struct strbuf *sb, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		if (f->c->text[i] == '\n')
			strbuf_puts(sb, "\n");
	}
}

void
flow_edit(struct flow *f, size_t off, size_t del, struct strbuf *sb)
{
	char *s = strbuf_steal(sb);

	if (!s || !PUSH(f->c, f->owned, f->nowned, f->cap_owned)) {
		free(s);
		f->c->failed = true;
		return;
	}
	f->owned[f->nowned++] = s;
	wc_add_edit(f->c, off, del, s);
}

void
flow_edit_str(struct flow *f, size_t off, size_t del, const char *s)
{
	struct strbuf sb = { 0 };

	strbuf_puts(&sb, s);
	flow_edit(f, off, del, &sb);
}

/* The declared return type of helper d, for __clwarp_rv: the words right
 * before its name that name a type (not `static`, `inline` or attributes). */
bool
flow_return_type(const struct flow *f, const struct decl *d, struct strbuf *sb)
{
	static const char *const more[] = { "unsigned", "signed", "long", "short", "const",
					    "struct", "union", "enum", "volatile" };
	size_t k = d->name, first = d->name;
	bool named = false;

	while (k > 0) {
		const struct tok *t = &f->t[k - 1];
		bool word = false;

		for (size_t i = 0; i < ARRAY_LENGTH(more) && t->kind == T_IDENT; i++)
			word |= ws_tok_is(f->c, t, more[i]);
		if (flow_ch(f, k - 1, '*') || (t->kind == T_IDENT && (!named || word) && !flow_is(f, k - 1, "__attribute__"))) {
			named |= t->kind == T_IDENT;
			first = --k;
			continue;
		}
		break;
	}
	for (k = first; k < d->name; k++) {
		strbuf_append(sb, f->c->text + f->t[k].off, f->t[k].len);
		strbuf_puts(sb, " ");
	}
	return named;
}

static size_t
count_returns(const struct flow *f, size_t a, size_t b)
{
	size_t n = 0;

	for (size_t k = a; k <= b; k++)
		n += flow_is(f, k, "return");
	return n;
}

/* Whether a non-void helper's returns need __clwarp_rv: any but one last. */
bool
flow_needs_rv(const struct flow *f, const struct decl *d)
{
	size_t n = count_returns(f, d->body + 1, d->end - 1), k, last = d->body + 1;

	for (k = d->body + 1; k < d->end; k = flow_stmt_end(f, k, d->end) + 1)
		last = k;
	return n > 1 || (n == 1 && !flow_is(f, last, "return"));
}

/* Does the macro named at t begin, after other such macros, with `kernel`? */
static bool
kernel_macro(const struct flow *f, const struct tok *t, int depth)
{
	int32_t s = ws_sym_find(f->c, t);

	for (size_t m = 0; s >= 0 && depth < 8 && m < f->c->nmacros; m++) {
		const struct macro *mm = &f->c->macros[m];
		const struct tok *b = mm->body < mm->end ? &f->c->mac.v[mm->body] : NULL;

		if (mm->sym == s && b &&
		    (ws_tok_is(f->c, b, "kernel") || ws_tok_is(f->c, b, "__kernel") ||
		     (b->kind == T_IDENT && kernel_macro(f, b, depth + 1))))
			return true;
	}
	return false;
}

/* Kernels: the signature rewrite gave them the scratch last (helpers
 * take it first), or `kernel` or a macro for it comes before the name. */
bool
flow_is_kernel(const struct flow *f, const struct decl *d)
{
	if ((f->c->syms[d->sym].kinds & SYM_KERNEL) ||
	    (d->rparen > d->lparen + 2 && ws_tok_is(f->c, &f->t[d->rparen - 1], SCRATCH) &&
	     !ws_tok_is(f->c, &f->t[d->lparen + 4], SCRATCH)))
		return true;
	for (size_t k = d->name; k > 0 && f->t[k - 1].kind != T_SEMI && f->t[k - 1].kind != T_RBRACE &&
	     f->t[k - 1].kind != T_LBRACE; k--) {
		const struct tok *t = &f->t[k - 1];

		if (ws_tok_is(f->c, t, "kernel") || ws_tok_is(f->c, t, "__kernel") ||
		    (t->kind == T_IDENT && kernel_macro(f, t, 0)))
			return true;
	}
	return false;
}

bool
flow_helper_sym(const struct flow *f, int32_t k)
{
	const struct sym *s = k >= 0 ? &f->c->syms[k] : NULL;

	return s && s->uses && (s->kinds & SYM_FUNC) && !(s->kinds & (SYM_KERNEL | SYM_OP | SYM_MACRO)) &&
	       !(s->len > 7 && memcmp(s->name, "clwarp_", 7) == 0) && !f->served[k];
}

