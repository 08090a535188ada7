/* The warp-context rewrite: helpers that call warp functions get the local backend's scratch. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "warpctx.h"

#include <stdint.h>
#include <stdlib.h>

#include "error.h"
#include "sourcewords.h"
#include "warpscan.h"

/* CLWARP_DEFINE_WARP_OP(NAME, ...) defines three functions the text never
 * shows; they take the context first, so their calls get it like helpers'. */
static void
find_ops(struct ctx *c, struct toks *ts)
{
	static const char *const prefixes[] = { "warp_reduce_", "warp_scan_inclusive_",
						"warp_scan_exclusive_" };
	struct tok *t = ts->v;

	for (size_t i = 0; i + 1 < ts->n && !c->failed; i++) {
		const struct tok *n = &t[i + 2];

		if (!ws_tok_is(c, &t[i], DEFINE_OP) || t[i + 1].kind != T_LPAREN)
			continue;
		if (i + 3 >= ts->n || n->kind != T_IDENT || t[i + 3].kind != T_COMMA ||
		    ws_is_macro_param(c, n) || t[i + 3].macro != n->macro) {
			ws_fail(c, &t[i], DEFINE_OP " with a name that a macro makes (a macro parameter "
			     "or ##): the engine cannot find the calls of the functions it defines "
			     "to pass them the warp context; write the operator's name out");
			continue;
		}
		for (size_t p = 0; p < ARRAY_LENGTH(prefixes); p++) {
			struct strbuf name = { 0 };
			int32_t k;

			strbuf_printf(&name, "%s%.*s", prefixes[p], (int)n->len, c->text + n->off);
			k = name.failed ? -1 : ws_sym_get(c, name.data, name.len, SYM_OP);
			if (k >= 0 && c->syms[k].name == name.data)
				c->syms[k].owned = strbuf_steal(&name);
			strbuf_free(&name);
			c->failed |= k < 0;
		}
	}
}

/* Record that the body of `user` names symbol t->sym. */
static void
add_edge(struct ctx *c, int32_t user, int32_t used)
{
	if (user < 0 || user == used || !PUSH(c, c->edges, c->nedges, c->cap_edges))
		return;
	c->edges[c->nedges].user = user;
	c->edges[c->nedges].next = c->syms[used].users;
	c->syms[used].users = (int32_t)c->nedges++;
}

/* Resolve the identifiers of a body t[first, last) owned by `owner`;
 * returns whether one of them uses the warp directly. */
static bool
scan_refs(struct ctx *c, struct tok *t, size_t first, size_t last, int32_t owner)
{
	bool uses = false;

	for (size_t i = first; i < last; i++) {
		/* `v.warp_x` is a field, not a warp function. */
		if (t[i].kind != T_IDENT || ws_is_macro_param(c, &t[i]) ||
		    (i > first && t[i - 1].kind == T_MEMBER))
			continue;
		if (ws_direct_use(c, &t[i]))
			uses = true;
		t[i].sym = ws_sym_find(c, &t[i]);
		if (t[i].sym >= 0)
			add_edge(c, owner, t[i].sym);
	}
	return uses;
}

/* Does a body use the warp, now that the fixed point is known? */
static bool
body_uses(const struct ctx *c, const struct tok *t, size_t first, size_t last)
{
	for (size_t i = first; i < last; i++) {
		if (t[i].kind == T_IDENT && !(i > first && t[i - 1].kind == T_MEMBER) &&
		    (ws_direct_use(c, &t[i]) || (t[i].sym >= 0 && c->syms[t[i].sym].uses)))
			return true;
	}
	return false;
}

void
wc_add_edit(struct ctx *c, size_t off, size_t del, const char *ins)
{
	if (!PUSH(c, c->edits, c->nedits, c->cap_edits))
		return;
	c->edits[c->nedits] = (struct edit){ off, del, c->nedits, ins };
	c->nedits++;
}

/* Which names use the warp: the users of every direct user, transitively.
 * Kernels count, since on local each takes the scratch too. */
static void
fixed_point(struct ctx *c)
{
	int32_t *stack = malloc((c->nsyms + 1) * sizeof(*stack));
	size_t n = 0;

	if (!stack) {
		c->failed = true;
		return;
	}
	for (size_t k = 0; k < c->nsyms; k++) {
		if (c->syms[k].kinds & (SYM_KERNEL | SYM_OP))
			c->syms[k].uses = true;
		if (c->syms[k].uses)
			stack[n++] = (int32_t)k;
	}
	while (n > 0) {
		for (int32_t e = c->syms[stack[--n]].users; e >= 0; e = c->edges[e].next) {
			struct sym *u = &c->syms[c->edges[e].user];

			if (!u->uses) {
				u->uses = true;
				stack[n++] = c->edges[e].user;
			}
		}
	}
	free(stack);
}

/* Which functions get the context; the declarations that cannot. */
static void
check_decls(struct ctx *c)
{
	char buf[128];

	for (size_t i = 0; i < c->ndecls; i++) {
		struct decl *d = &c->decls[i];
		struct tok *t = d->ts->v;
		bool manual = false;

		for (uint32_t p = d->lparen; p < d->rparen && !manual; p++)
			manual = ws_tok_is(c, &t[p], "CLWARP_WARP_PARAM") || ws_tok_is(c, &t[p], SCRATCH);
		if (d->sym >= 0) {
			struct sym *s = &c->syms[d->sym];

			if (manual && s->manual < 0)
				s->manual = (int32_t)i;
			if (!manual && s->automatic < 0)
				s->automatic = (int32_t)i;
			continue;
		}
		if (manual || d->body == d->end || !body_uses(c, t, d->body, d->end))
			continue;
		if (d->macro >= 0)
			ws_fail(c, &t[d->name], "function `%s` (in the body of macro %s) calls warp functions, "
			     "but its name is made by the macro (## or a macro parameter), so the engine "
			     "cannot find its calls to pass the warp context: " BY_HAND,
			     ws_tok_text(c, &t[d->name - (d->name > c->macros[d->macro].body &&
						       t[d->name - 1].kind == T_PASTE ? 2 : 0)],
				      &t[d->name], buf, sizeof(buf)),
			     ws_tok_text(c, &c->mac.v[c->macros[d->macro].name], &c->mac.v[c->macros[d->macro].name],
				      buf + 64, sizeof(buf) - 64));
		else
			ws_fail(c, &t[d->name], "a function whose name a macro makes calls warp functions, so "
			     "the engine cannot find its calls to pass the warp context: " BY_HAND);
	}
	for (size_t k = 0; k < c->nsyms; k++) {
		struct sym *s = &c->syms[k];

		if (s->kinds & SYM_OP)
			s->ctx = true;
		if (!(s->kinds & SYM_FUNC) || (s->kinds & (SYM_KERNEL | SYM_MACRO)) || !s->uses)
			continue;
		s->ctx = s->manual < 0;
		if (s->manual >= 0 && s->automatic >= 0) {
			const struct decl *a = &c->decls[s->automatic], *m = &c->decls[s->manual];
			struct strbuf where = { 0 };

			ws_put_pos(c, &where, &m->ts->v[m->name]);
			ws_fail(c, &a->ts->v[a->name], "function `%.*s` calls warp functions and is declared "
			     "here without CLWARP_WARP_PARAM but with it at %s: write CLWARP_WARP_PARAM in "
			     "every declaration of it, or in none (the engine then adds the warp context "
			     "itself)", (int)s->len, s->name, where.data ? where.data : "?");
			strbuf_free(&where);
		}
	}
}

/* Calls of the functions that get the context: `__clwarp_scratch` first;
 * kernels (the kernel rewrite appends their scratch parameter): last. A
 * name that is not called cannot be given it. */
static void
rewrite_calls(struct ctx *c, struct toks *ts)
{
	struct tok *t = ts->v;

	for (size_t i = 0; i < ts->n; i++) {
		const struct sym *s;
		bool call = i + 1 < ts->n && t[i + 1].kind == T_LPAREN && t[i + 1].macro == t[i].macro;
		bool empty = call && i + 2 < ts->n && t[i + 2].kind == T_RPAREN;

		/* Macro arguments at file scope were not resolved with the bodies. */
		if (t[i].in_body && t[i].kind == T_IDENT && t[i].sym < 0 && t[i].macro < 0)
			t[i].sym = ws_sym_find(c, &t[i]);
		if (!t[i].in_body || t[i].sym < 0 || t[i].decl_name || (i > 0 && t[i - 1].kind == T_MEMBER))
			continue;
		s = &c->syms[t[i].sym];
		if (s->ctx && call) {
			if (!(c->mode == WARPCTX_SCRATCH && (s->kinds & SYM_OP)))
				wc_add_edit(c, t[i + 1].off + 1, 0, empty ? SCRATCH : SCRATCH ", ");
		} else if (s->ctx) {
			ws_fail(c, &t[i], "function `%.*s` calls warp functions and is named here other than "
			     "in a direct call (a macro's argument?), so the engine cannot pass it the "
			     "warp context: call it directly, or " BY_HAND, (int)s->len, s->name);
		} else if ((s->kinds & SYM_KERNEL) && call) {
			size_t last = t[i].macro >= 0 ? c->macros[t[i].macro].end : ts->n;
			size_t rp = ws_match(t, i + 1, last);

			if (rp < last)
				wc_add_edit(c, t[rp].off, 0, empty ? SCRATCH : ", " SCRATCH);
		}
	}
}

/* Definitions and prototypes: the context becomes the first parameter. */
static void
rewrite_decls(struct ctx *c)
{
	for (size_t i = 0; i < c->ndecls; i++) {
		const struct decl *d = &c->decls[i];
		const struct tok *t = d->ts->v;

		if (d->sym < 0 || !c->syms[d->sym].ctx)
			continue;
		if (d->rparen == d->lparen + 1)
			wc_add_edit(c, t[d->lparen].off + 1, 0, SOURCE_SCRATCH_PARAM);
		else if (d->rparen == d->lparen + 2 && ws_tok_is(c, &t[d->lparen + 1], "void"))
			wc_add_edit(c, t[d->lparen + 1].off, 4, SOURCE_SCRATCH_PARAM);
		else
			wc_add_edit(c, t[d->lparen].off + 1, 0, SOURCE_SCRATCH_PARAM ", ");
	}
}

static int
edit_order(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void
wc_apply_edits(struct ctx *c, struct strbuf *text)
{
	struct strbuf out = { 0 };
	size_t at = 0;

	if (c->nedits == 0)
		return;
	qsort(c->edits, c->nedits, sizeof(*c->edits), edit_order);
	for (size_t i = 0; i < c->nedits; i++) {
		const struct edit *e = &c->edits[i];

		if (e->off < at)
			continue;
		strbuf_append(&out, text->data + at, e->off - at);
		strbuf_puts(&out, e->ins);
		at = e->off + e->del;
	}
	strbuf_append(&out, text->data + at, text->len - at);
	if (out.failed) {
		c->failed = true;
		strbuf_free(&out);
		return;
	}
	strbuf_free(text);
	*text = out;
}

void
wc_analyse(struct ctx *c)
{
	size_t bound = c->nmacros + 1;

	ws_tokenize(c);
	/* Every symbol is a macro or a name before a parenthesis (times 3: an
	 * operator's three functions). */
	for (size_t i = 0; i + 1 < c->top.n; i++)
		bound += 3 * (c->top.v[i].kind == T_IDENT && c->top.v[i + 1].kind == T_LPAREN);
	for (size_t i = 0; i + 1 < c->mac.n; i++)
		bound += 3 * (c->mac.v[i].kind == T_IDENT && c->mac.v[i + 1].kind == T_LPAREN);
	for (c->table_size = 16; c->table_size < 2 * bound + 16; c->table_size *= 2)
		;
	c->table = c->failed ? NULL : malloc(c->table_size * sizeof(*c->table));
	if (!c->table) {
		c->failed = true;
		return;
	}
	memset(c->table, 0xff, c->table_size * sizeof(*c->table));
	for (size_t m = 0; m < c->nmacros && !c->failed; m++) {
		const struct tok *n = &c->mac.v[c->macros[m].name];

		c->macros[m].sym = ws_sym_get(c, c->text + n->off, n->len, SYM_MACRO);
	}
	ws_scan_decls(c, &c->top, 0, c->top.n, -1);
	for (size_t m = 0; m < c->nmacros; m++)
		ws_scan_decls(c, &c->mac, c->macros[m].body, c->macros[m].end, (int32_t)m);
	find_ops(c, &c->top);
	find_ops(c, &c->mac);
	if (c->failed)
		return;
	for (size_t i = 0; i < c->ndecls; i++) {
		const struct decl *d = &c->decls[i];

		if (scan_refs(c, d->ts->v, d->body + 1, d->end, d->sym) && d->sym >= 0)
			c->syms[d->sym].uses = true;
	}
	for (size_t m = 0; m < c->nmacros; m++) {
		const struct macro *mm = &c->macros[m];

		for (uint32_t i = mm->body; i < mm->end; i++)
			c->mac.v[i].in_body = true;
		if (scan_refs(c, c->mac.v, mm->body, mm->end, mm->sym) && mm->sym >= 0)
			c->syms[mm->sym].uses = true;
	}
	if (c->failed)
		return;
	fixed_point(c);
	check_decls(c);
}

static void
analyse(struct ctx *c)
{
	wc_analyse(c);
	if (c->failed)
		return;
	rewrite_calls(c, &c->top);
	rewrite_calls(c, &c->mac);
	rewrite_decls(c);
}

bool
wc_start(struct ctx *c, const struct strbuf *text, const char *name, enum warpctx_mode mode)
{
	memset(c, 0, sizeof(*c));
	c->mode = mode;
	c->text = text->data ? text->data : "";
	c->name = name;
	if (!PUSH(c, c->files, c->nfiles, c->cap_files))
		return false;
	c->files[0].text = name;
	c->files[0].len = strlen(name);
	c->nfiles = 1;
	return true;
}

void
wc_free(struct ctx *c)
{
	for (size_t k = 0; k < c->nsyms; k++)
		free(c->syms[k].owned);
	free(c->top.v);
	free(c->mac.v);
	free(c->files);
	free(c->macros);
	free(c->decls);
	free(c->syms);
	free(c->table);
	free(c->edges);
	free(c->edits);
}

clwarp_status
warpctx_rewrite(struct strbuf *text, const char *name, enum warpctx_mode mode)
{
	struct ctx c;
	clwarp_status status = CLWARP_OK;

	if (wc_start(&c, text, name, mode))
		analyse(&c);
	if (c.failed)
		status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	else if (c.error)
		status = CLWARP_ERROR_BUILD;
	else if (mode != WARPCTX_CHECK)
		wc_apply_edits(&c, text);
	if (status == CLWARP_OK && c.failed)
		status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	wc_free(&c);
	return status;
}
