/* Warp calls under branches on barrier-built warps: every work-item makes every call. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "warpflow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "flowloop.h"
#include "flowtext.h"

#define ON FLOW_ON
#define LIVE FLOW_LIVE
#define NOT_HERE "; warps built from work-group barriers (the local backend, khr on PoCL) " \
	"need every work-item of the work-group at every warp call: write the branch as " \
	"if/else or a loop"

static bool walk_stmt(struct flow *f, size_t a, size_t e, bool off, size_t last, bool is_last);

/* Where text before statement t[a] goes: before its _Pragma or attributes. */
static size_t
start_off(const struct flow *f, size_t a)
{
	return f->t[f->prefix_of == a ? f->prefix : a].off;
}

/* Replace t[a..b] with sb's text, keeping the lines. */
static void
replace(struct flow *f, size_t a, size_t b, struct strbuf *sb)
{
	size_t from = f->t[a].off, to = flow_end_off(f, b);

	flow_put_newlines(f, sb, from, to);
	flow_edit(f, from, to - from, sb);
	f->used = true;
}

static void
replace_calls(struct flow *f, const struct hoist *hs, size_t nh)
{
	for (size_t i = 0; i < nh; i++) {
		struct strbuf sb = { 0 };
		bool outer = true;

		for (size_t j = 0; j < nh; j++)
			outer &= !(hs[j].a < hs[i].a && hs[j].b > hs[i].b);
		if (!outer)
			continue;
		strbuf_printf(&sb, "__clwarp_t%u", hs[i].id);
		replace(f, hs[i].a, hs[i].b, &sb);
	}
}

/* `const` on the object itself goes: the value comes behind the flag. */
static void
drop_const(struct flow *f, size_t a, size_t e)
{
	for (size_t k = a; k < e; k++) {
		bool pointee = false;

		if (!flow_is(f, k, "const"))
			continue;
		for (size_t j = k + 1; j < e && f->t[j].kind != T_ASSIGN && f->t[j].kind != T_COMMA &&
		     !flow_ch(f, j, '['); j++)
			pointee |= flow_ch(f, j, '*');
		if (!pointee)
			flow_edit_str(f, f->t[k].off, f->t[k].len, "");
	}
}

/* One declarator t[s..end]: its initializer moves behind the flag. */
static bool
decl_part(struct flow *f, size_t s, size_t end, const struct hoist *hs, size_t nh,
	  struct strbuf *after, bool zero)
{
	size_t q, depth = 0, name;
	struct strbuf gap = { 0 };

	for (q = s; q <= end; q++) {
		uint8_t kind = f->t[q].kind;

		if (kind == T_LPAREN || flow_ch(f, q, '['))
			depth++;
		else if ((kind == T_RPAREN || flow_ch(f, q, ']')) && depth > 0)
			depth--;
		else if (kind == T_ASSIGN && depth == 0)
			break;
	}
	if (q > end || q == s || q == end || f->t[q + 1].kind == T_LBRACE)
		return false;
	name = q - 1;
	if (f->t[name].kind != T_IDENT)
		return false;
	strbuf_append(after, f->c->text + f->t[name].off, f->t[name].len);
	strbuf_puts(after, " = ");
	flow_compose(f, after, q + 1, end, hs, nh, NULL, 0);
	strbuf_puts(after, "; ");
	/* Zero where the flag is clear, not undefined: PoCL 3.1 was seen to
	 * lose a warp's result when a value left undefined in the other
	 * work-items went into a warp call. */
	if (zero)
		strbuf_puts(&gap, "= 0");
	replace(f, q, end, &gap);
	return true;
}

/* A declaration where the flag may be clear: its names stay in scope,
 * their values come behind the flag. */
static void
guard_decl(struct flow *f, size_t a, size_t e, const struct hoist *hs, size_t nh)
{
	struct strbuf after = { 0 };
	size_t start = a, depth = 0;
	bool any = false, zero = flow_zero_init(f, a, e);

	strbuf_puts(&after, " if (" ON ") { ");
	for (size_t k = a; k <= e; k++) {
		uint8_t kind = f->t[k].kind;

		if (kind == T_LPAREN || kind == T_LBRACE || flow_ch(f, k, '['))
			depth++;
		else if ((kind == T_RPAREN || kind == T_RBRACE || flow_ch(f, k, ']')) && depth > 0)
			depth--;
		else if (depth == 0 && (kind == T_COMMA || k == e)) {
			any |= k > start && decl_part(f, start, k - 1, hs, nh, &after, zero);
			start = k + 1;
		}
	}
	if (!any) {
		strbuf_free(&after);
		return;
	}
	drop_const(f, a, e);
	strbuf_puts(&after, "}");
	flow_edit(f, flow_end_off(f, e), 0, &after);
	f->used = true;
}

static void
guard_plain(struct flow *f, size_t a, size_t e)
{
	enum flow_decl kind = flow_declaration(f, a, e);

	if (kind == FLOW_KEEP || (a == e && f->t[a].kind == T_SEMI))
		return;
	if (kind == FLOW_DECL) {
		guard_decl(f, a, e, NULL, 0);
		return;
	}
	flow_edit_str(f, start_off(f, a), 0, "if (" ON ") { ");
	flow_edit_str(f, flow_end_off(f, e), 0, " }");
	f->used = true;
}

/* `CALL;`: every work-item makes the call; its arguments are read behind the flag. */
static void
guard_args(struct flow *f, size_t a, size_t b)
{
	size_t guards[16];
	size_t ng = flow_unsafe_args(f, a, b, guards, ARRAY_LENGTH(guards) / 2);

	for (size_t g = 0; g < ng; g++) {
		struct strbuf sb = { 0 };

		strbuf_puts(&sb, ") : (__typeof__(");
		flow_compose(f, &sb, guards[2 * g], guards[2 * g + 1], NULL, 0, NULL, 0);
		strbuf_puts(&sb, "))0)");
		flow_edit_str(f, f->t[guards[2 * g]].off, 0, "(" ON " ? (");
		flow_edit(f, flow_end_off(f, guards[2 * g + 1]), 0, &sb);
		f->used = true;
	}
}

/* An expression statement or declaration that makes warp calls. */
static void
walk_simple(struct flow *f, size_t a, size_t e, bool off, const struct flow_info *info)
{
	enum flow_decl kind = flow_declaration(f, a, e);
	struct strbuf pre = { 0 };
	struct hoist *hs;
	size_t nh;

	if ((!off && !info->condop) || kind == FLOW_KEEP)
		return;
	if (kind == FLOW_NOT_DECL && flow_is_wcall(f, a) && flow_match(f, a + 1) + 1 == e) {
		if (flow_statement_macro(f, a))
			flow_fail_macro(f, a);
		guard_args(f, a, e - 1);
		return;
	}
	hs = flow_calls(f, a, e, &nh);
	if (kind != FLOW_DECL)
		strbuf_puts(&pre, "{ ");
	flow_put_hoists(f, &pre, hs, nh);
	if (kind == FLOW_DECL) {
		flow_edit(f, f->t[a].off, 0, &pre);
		guard_decl(f, a, e, hs, nh);
	} else {
		strbuf_puts(&pre, "if (" ON ") { ");
		flow_edit(f, start_off(f, a), 0, &pre);
		replace_calls(f, hs, nh);
		flow_edit_str(f, flow_end_off(f, e), 0, " } }");
	}
	free(hs);
}

static bool
walk_block(struct flow *f, size_t a, size_t b, bool off, bool is_last)
{
	for (size_t k = a; k < b && !f->c->error && !f->c->failed;) {
		size_t e = flow_stmt_end(f, k, b);

		off = walk_stmt(f, k, e, off, b, is_last && e + 1 >= b);
		k = e + 1;
	}
	return off;
}

static bool
walk_if(struct flow *f, size_t a, size_t e, bool off, size_t last, const struct flow_info *info)
{
	size_t rp = flow_match(f, a + 1), s1 = flow_stmt_end(f, rp + 1, last), nh;
	unsigned id = f->ids++;
	struct strbuf sb = { 0 };
	struct hoist *hs = flow_calls(f, a + 2, rp - 1, &nh);

	strbuf_puts(&sb, "{ ");
	flow_put_hoists(f, &sb, hs, nh);
	strbuf_printf(&sb, "int __clwarp_s%u = " ON "; int __clwarp_c%u = " ON " && (", id, id);
	flow_compose(f, &sb, a + 2, rp - 1, hs, nh, NULL, 0);
	strbuf_printf(&sb, "); " ON " = __clwarp_c%u; ", id);
	replace(f, a, rp, &sb);
	free(hs);
	walk_stmt(f, rp + 1, s1, true, last, false);
	if (s1 < e) {
		strbuf_printf(&sb, ON " = __clwarp_s%u && !__clwarp_c%u && ", id, id);
		flow_put_alive(&sb, f->loop);
		strbuf_puts(&sb, "; ");
		replace(f, s1 + 1, s1 + 1, &sb);
		walk_stmt(f, s1 + 2, e, true, last, false);
	}
	strbuf_printf(&sb, " " ON " = __clwarp_s%u && ", id);
	flow_put_alive(&sb, f->loop);
	strbuf_puts(&sb, "; }");
	flow_edit(f, flow_end_off(f, e), 0, &sb);
	return off || info->ret || info->jump;
}

static bool
walk_while(struct flow *f, size_t a, size_t e, bool off, size_t last, const struct flow_info *bi)
{
	size_t hdr[6], rp = flow_loop_header(f, a, hdr);
	struct strbuf sb = { 0 };
	unsigned id;
	int outer = f->loop;

	if (flow_is(f, a, "for") && !bi->ret && !bi->jump && flow_uniform_for(f, hdr, rp + 1, e))
		return walk_stmt(f, rp + 1, e, off, last, false);
	for (size_t k = hdr[0]; k <= hdr[1]; k++) {
		if (flow_is_wcall(f, k))
			ws_fail(f->c, &f->t[k], "a warp call in a for loop's first clause" NOT_HERE);
	}
	id = f->ids++;
	flow_blank_pragma(f, a);
	strbuf_printf(&sb, "{ int __clwarp_s%u = " ON "; ", id);
	if (hdr[0] <= hdr[1]) {
		bool guard = off && flow_declaration(f, hdr[0], hdr[1] + 1) == FLOW_NOT_DECL;

		strbuf_puts(&sb, guard ? "if (" ON ") { " : "");
		flow_compose(f, &sb, hdr[0], hdr[1], NULL, 0, NULL, 0);
		strbuf_puts(&sb, guard ? "; } " : "; ");
	}
	flow_put_loop_open(&sb, id);
	flow_put_loop_test(f, &sb, hdr[2], hdr[3], id);
	replace(f, a, rp, &sb);
	f->loop = (int)id;
	walk_stmt(f, rp + 1, e, true, last, false);
	f->loop = outer;
	strbuf_printf(&sb, " " ON " = __clwarp_b%u && " LIVE "; ", id);
	if (hdr[4] <= hdr[5]) {
		strbuf_puts(&sb, "if (" ON ") { ");
		flow_compose(f, &sb, hdr[4], hdr[5], NULL, 0, NULL, 0);
		strbuf_puts(&sb, "; } ");
	}
	flow_put_loop_close(f, &sb, id, outer);
	flow_edit(f, flow_end_off(f, e), 0, &sb);
	return off || bi->ret;
}

static bool
walk_do(struct flow *f, size_t a, size_t e, bool off, size_t last, const struct flow_info *bi)
{
	size_t body_e = flow_stmt_end(f, a + 1, last), rp = flow_match(f, body_e + 2);
	unsigned id = f->ids++;
	struct strbuf sb = { 0 };
	int outer = f->loop;

	flow_blank_pragma(f, a);
	strbuf_printf(&sb, "{ int __clwarp_s%u = " ON "; ", id);
	flow_put_loop_open(&sb, id);
	strbuf_printf(&sb, ON " = __clwarp_b%u && " LIVE "; ", id);
	replace(f, a, a, &sb);
	f->loop = (int)id;
	walk_stmt(f, a + 1, body_e, true, last, false);
	f->loop = outer;
	strbuf_puts(&sb, " ");
	flow_put_loop_test(f, &sb, body_e + 3, rp - 1, id);
	flow_put_loop_close(f, &sb, id, outer);
	replace(f, body_e + 1, e, &sb);
	return off || bi->ret;
}

static bool
walk_return(struct flow *f, size_t a, size_t e, bool off, bool is_last, const struct flow_info *info)
{
	struct strbuf sb = { 0 };
	struct hoist *hs;
	size_t nh;

	if (f->kernel || e == a + 1) {
		if (!off && is_last)
			return off;
		strbuf_puts(&sb, "if (" ON ") { " LIVE " = 0; " ON " = 0; }");
		replace(f, a, e, &sb);
		return true;
	}
	hs = flow_calls(f, a + 1, e - 1, &nh);
	strbuf_puts(&sb, "{ ");
	flow_put_hoists(f, &sb, hs, nh);
	if (!f->need_rv) {
		flow_edit(f, f->t[a].off, 0, &sb);
		flow_edit_str(f, flow_end_off(f, e), 0, " }");
		if (flow_unsafe(f, a + 1, e - 1)) {
			flow_edit_str(f, flow_end_off(f, a), 0, " " ON " ? (");
			strbuf_puts(&sb, ") : (__typeof__(");
			flow_compose(f, &sb, a + 1, e - 1, hs, nh, NULL, 0);
			strbuf_puts(&sb, "))0");
			flow_edit(f, f->t[e].off, 0, &sb);
		}
		replace_calls(f, hs, nh);
		free(hs);
		return off || info->condop;
	}
	strbuf_puts(&sb, "if (" ON ") { __clwarp_rv = (");
	flow_compose(f, &sb, a + 1, e - 1, hs, nh, NULL, 0);
	strbuf_puts(&sb, "); " LIVE " = 0; " ON " = 0; } }");
	replace(f, a, e, &sb);
	free(hs);
	return true;
}

static bool
walk_jump(struct flow *f, size_t a, size_t e)
{
	struct strbuf sb = { 0 };

	if (f->loop < 0) {
		ws_fail(f->c, &f->t[a], "this break or continue leaves a loop or switch around warp "
			"calls that the engine cannot rewrite" NOT_HERE);
		return true;
	}
	strbuf_printf(&sb, "if (" ON ") { __clwarp_%c%d = 0; " ON " = 0; }",
		      flow_is(f, a, "break") ? 'b' : 'k', f->loop);
	replace(f, a, e, &sb);
	return true;
}

static bool
walk_stmt(struct flow *f, size_t a, size_t e, bool off, size_t last, bool is_last)
{
	struct flow_info info;

	if (f->c->error || f->c->failed || a > e)
		return off;
	if (flow_prefix(f, a)) {
		size_t p = a;

		while (flow_prefix(f, p))
			p = flow_match(f, p + 1) + 1;
		f->prefix = a;
		f->prefix_of = p;
		return walk_stmt(f, p, e, off, last, is_last);
	}
	flow_classify(f, a, e, &info);
	if (!info.wcall && !info.ret && !info.jump) {
		if (off)
			guard_plain(f, a, e);
		return off;
	}
	if (f->t[a].kind == T_LBRACE)
		return walk_block(f, a + 1, e, off, is_last);
	if (flow_is(f, a, "if"))
		return walk_if(f, a, e, off, last, &info);
	if (flow_is(f, a, "for") || flow_is(f, a, "while") || flow_is(f, a, "do")) {
		size_t body_a = flow_is(f, a, "do") ? a + 1 : flow_match(f, a + 1) + 1;
		size_t body_e = flow_is(f, a, "do") ? flow_stmt_end(f, a + 1, last) : e;
		struct flow_info bi;

		flow_classify(f, body_a, body_e, &bi);
		return flow_is(f, a, "do") ? walk_do(f, a, e, off, last, &bi)
					   : walk_while(f, a, e, off, last, &bi);
	}
	if (flow_is(f, a, "return"))
		return walk_return(f, a, e, off, is_last, &info);
	if (flow_is(f, a, "break") || flow_is(f, a, "continue"))
		return walk_jump(f, a, e);
	if (info.other || flow_is(f, a, "switch")) {
		ws_fail(f->c, &f->t[a], "a warp call or return inside a switch or after a goto" NOT_HERE);
		return off;
	}
	walk_simple(f, a, e, off, &info);
	return off;
}

static void
prologue(struct flow *f, const struct decl *d, size_t slot, size_t edit, const char *rtype)
{
	struct strbuf sb = { 0 };
	char *s;

	strbuf_puts(&sb, f->kernel ? " int " ON " = 1, " LIVE " = 1; " : " int " LIVE " = 1; ");
	if (f->need_rv)
		strbuf_printf(&sb, "%s__clwarp_rv%s; ", rtype,
			      strstr(rtype, "struct ") || strstr(rtype, "union ") ? "" : " = 0");
	s = strbuf_steal(&sb);
	if (!s) {
		f->c->failed = true;
		return;
	}
	free(f->owned[slot]);
	f->owned[slot] = s;
	f->c->edits[edit].ins = s;
	if (f->need_rv)
		flow_edit_str(f, f->t[d->end].off, 0, " return __clwarp_rv; ");
}

static void
flow_function(struct flow *f, const struct decl *d)
{
	struct strbuf rtype = { 0 };
	bool wcall = false, helpers = false;
	size_t slot, edit;

	for (size_t k = d->body + 1; k < d->end; k++) {
		wcall |= flow_is_wcall(f, k) && !flow_is(f, k, "barrier") && !flow_is(f, k, "__syncthreads");
		helpers |= flow_is_helper(f, k);
	}
	if (!wcall)
		return;
	f->d = d;
	f->kernel = flow_is_kernel(f, d);
	f->used = helpers;
	f->loop = -1;
	f->prefix = f->prefix_of = SIZE_MAX;
	f->need_rv = false;
	if (!f->kernel) {
		if (!flow_return_type(f, d, &rtype))
			ws_fail(f->c, &f->t[d->name], "the engine cannot read this function's return type");
		f->need_rv = !(rtype.data && strcmp(rtype.data, "void ") == 0) && flow_needs_rv(f, d);
	}
	edit = f->c->nedits;
	flow_edit_str(f, flow_end_off(f, d->body), 0, "");
	slot = f->nowned - 1;
	walk_block(f, d->body + 1, d->end, !f->kernel, true);
	if (f->used && !f->c->failed)
		prologue(f, d, slot, edit, rtype.data ? rtype.data : "");
	strbuf_free(&rtype);
}

/* Helpers take the flag after the warp context, in every declaration and call. */
static void
pass_flag(struct flow *f, struct toks *ts, bool top)
{
	struct tok *t = ts->v;

	for (size_t i = 0; i < f->c->ndecls; i++) {
		const struct decl *d = &f->c->decls[i];

		if (d->ts != ts || !flow_helper_sym(f, d->sym) || (top && flow_is_kernel(f, d)))
			continue;
		for (size_t p = d->lparen + 1; p < d->rparen; p++) {
			if (ws_tok_is(f->c, &t[p], SCRATCH) || ws_tok_is(f->c, &t[p], "CLWARP_WARP_PARAM")) {
				wc_add_edit(f->c, t[p].off + t[p].len, 0, ", int " ON);
				break;
			}
		}
	}
	for (size_t k = 0; k + 2 < ts->n; k++) {
		if (!t[k].in_body || t[k].kind != T_IDENT || t[k].decl_name || t[k + 1].kind != T_LPAREN)
			continue;
		if (t[k].sym < 0)
			t[k].sym = ws_sym_find(f->c, &t[k]);
		if (!flow_helper_sym(f, t[k].sym) ||
		    !(ws_tok_is(f->c, &t[k + 2], SCRATCH) || ws_tok_is(f->c, &t[k + 2], "CLWARP_WARP_ARG")))
			continue;
		if (top)
			f->on_after[k + 2] = true;
		wc_add_edit(f->c, t[k + 2].off + t[k + 2].len, 0, ", " ON);
	}
}

/* libclwarp's own code (clwarp/...: the algorithms, <clwarp/cuda.h>)
 * reaches every warp call with every work-item already. */
static bool
served(const struct ctx *c, const struct decl *d)
{
	const struct tok *t = &d->ts->v[d->name];

	return c->files[t->file].len > 7 && memcmp(c->files[t->file].text, "clwarp/", 7) == 0;
}

clwarp_status
warpflow_rewrite(struct strbuf *text, const char *name)
{
	struct ctx c;
	struct flow f = { 0 };
	clwarp_status status = CLWARP_OK;

	if (wc_start(&c, text, name, WARPCTX_LOCAL))
		wc_analyse(&c);
	/* Three empty tokens at the end of the text: a look at t[k + 1] or
	 * t[k + 2], or at the `)` that an unclosed `(` never gets (ws_match
	 * gives n), stays inside the array. */
	for (size_t i = 0; i < 3 && !c.failed; i++) {
		if (ws_grow(&c, (void **)&c.top.v, c.top.n + i, &c.top.cap, sizeof(*c.top.v)))
			c.top.v[c.top.n + i] = (struct tok){ .off = (uint32_t)text->len, .sym = -1,
							     .macro = -1, .kind = T_OTHER };
	}
	f.c = &c;
	f.t = c.top.v;
	f.n = c.top.n;
	f.on_after = c.failed || c.error ? NULL : calloc(c.top.n + 1, sizeof(*f.on_after));
	f.served = f.on_after ? calloc(c.nsyms + 1, sizeof(*f.served)) : NULL;
	for (size_t i = 0; f.served && i < c.ndecls; i++) {
		if (c.decls[i].sym >= 0 && served(&c, &c.decls[i]))
			f.served[c.decls[i].sym] = true;
	}
	if (f.served) {
		pass_flag(&f, &c.top, true);
		pass_flag(&f, &c.mac, false);
		for (size_t i = 0; i < c.ndecls && !c.failed && !c.error; i++) {
			const struct decl *d = &c.decls[i];

			if (d->ts == &c.top && d->sym >= 0 && d->body < d->end && !served(&c, d) &&
			    (flow_helper_sym(&f, d->sym) || (c.syms[d->sym].kinds & SYM_KERNEL)))
				flow_function(&f, d);
		}
	} else {
		c.failed |= !c.error;
	}
	if (c.failed)
		status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	else if (c.error)
		status = CLWARP_ERROR_BUILD;
	else
		wc_apply_edits(&c, text);
	if (status == CLWARP_OK && c.failed)
		status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	for (size_t i = 0; i < f.nowned; i++)
		free(f.owned[i]);
	free(f.owned);
	free(f.on_after);
	free(f.served);
	wc_free(&c);
	return status;
}
