/* The warp-flow rewrite's loops: which keep their trips, and the text of one rewritten. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "flowloop.h"

#include <stdlib.h>
#include <string.h>

#define ON FLOW_ON
#define LIVE FLOW_LIVE

/* `__clwarp_live`, and the flags of the rewritten loop `loop`. */
void
flow_put_alive(struct strbuf *sb, int loop)
{
	strbuf_puts(sb, LIVE);
	if (loop >= 0)
		strbuf_printf(sb, " && __clwarp_b%d && __clwarp_k%d", loop, loop);
}

/* Is t[k] the same for every work-item of a kernel's loop header? */
static bool
uniform_tok(const struct flow *f, size_t k, const size_t *vars, size_t nv)
{
	static const char *const words[] = { "warpSize", "warp_size", "CLWARP_WARP_SIZE",
		"get_local_size", "get_num_groups", "get_global_size", "get_enqueued_local_size",
		"get_work_dim", "get_max_sub_group_size", "blockDim", "gridDim", "sizeof", "min",
		"max", "int", "uint", "unsigned", "long", "ulong", "size_t", "short", "char" };
	const struct tok *t = &f->t[k];
	const char *s = f->c->text + t->off;
	bool caps = true;

	if (flow_ch(f, k, '[') || (t->kind == T_MEMBER && t->len == 2))
		return false;
	if (t->kind != T_IDENT || (k > 0 && f->t[k - 1].kind == T_MEMBER))
		return true;
	for (size_t i = 0; i < nv; i++) {
		if (t->len == f->t[vars[i]].len && memcmp(s, f->c->text + f->t[vars[i]].off, t->len) == 0)
			return true;
	}
	for (size_t i = 0; i < ARRAY_LENGTH(words); i++) {
		if (flow_is(f, k, words[i]))
			return true;
	}
	for (size_t i = 0; i < t->len; i++)
		caps &= !(s[i] >= 'a' && s[i] <= 'z');
	if (caps)
		return true;
	/* A kernel's scalar parameter. */
	for (size_t p = f->d->lparen + 1, star = 0; f->kernel && p < f->d->rparen; p++) {
		star |= flow_ch(f, p, '*');
		if (f->t[p].kind == T_COMMA)
			star = 0;
		else if (!star && f->t[p].len == t->len && memcmp(f->c->text + f->t[p].off, s, t->len) == 0 &&
			 (f->t[p + 1].kind == T_COMMA || f->t[p + 1].kind == T_RPAREN))
			return true;
	}
	return false;
}

static bool
assigns(const struct flow *f, size_t a, size_t b, const struct tok *v)
{
	for (size_t k = a; k <= b; k++) {
		const struct tok *t = &f->t[k];

		if (t->kind != T_IDENT || t->len != v->len ||
		    memcmp(f->c->text + t->off, f->c->text + v->off, t->len) != 0)
			continue;
		if (f->t[k + 1].kind == T_ASSIGN || flow_ch(f, k - 1, '&') ||
		    (f->t[k + 1].kind == T_OTHER && f->t[k + 2].kind == T_OTHER &&
		     strchr("+-*/%&|^<>", f->c->text[f->t[k + 1].off]) &&
		     (flow_ch(f, k + 2, '=') || flow_ch(f, k + 2, f->c->text[f->t[k + 1].off]))) ||
		    ((flow_ch(f, k - 1, '+') && flow_ch(f, k - 2, '+')) ||
		     (flow_ch(f, k - 1, '-') && flow_ch(f, k - 2, '-'))))
			return true;
	}
	return false;
}

/* `for (int d = 16; d > 0; d /= 2)`: the same trips for every work-item. */
bool
flow_uniform_for(const struct flow *f, const size_t *hdr, size_t body_a, size_t body_e)
{
	size_t vars[4], nv = 0;

	for (size_t k = hdr[0]; k + 1 <= hdr[1] && nv < ARRAY_LENGTH(vars); k++) {
		if (f->t[k].kind == T_IDENT && f->t[k + 1].kind == T_ASSIGN)
			vars[nv++] = k;
	}
	if (nv == 0 || hdr[2] > hdr[3])
		return false;
	for (size_t k = hdr[0]; k <= hdr[5]; k++) {
		if (!uniform_tok(f, k, vars, nv))
			return false;
	}
	for (size_t i = 0; i < nv; i++) {
		if (assigns(f, body_a, body_e, &f->t[vars[i]]))
			return false;
	}
	return true;
}

/* An empty line where a `#pragma` stands right before t[k]: the loop it
 * names is rewritten, and the pragma must not land on other code. */
void
flow_blank_pragma(struct flow *f, size_t k)
{
	const char *text = f->c->text, *p = text + f->t[k].off, *q;

	if (f->prefix_of == k) {
		flow_edit_str(f, f->t[f->prefix].off, f->t[k].off - f->t[f->prefix].off, "");
		p = text + f->t[f->prefix].off;
	}

	while (p > text && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	if (p == text || p[-1] != '\n')
		return;
	for (q = --p; q > text && q[-1] != '\n'; q--)
		;
	while (*q == ' ' || *q == '\t')
		q++;
	if (strncmp(q, "#pragma", 7) == 0)
		flow_edit_str(f, (size_t)(q - text), (size_t)(p - q), "");
}

void
flow_put_loop_test(struct flow *f, struct strbuf *sb, size_t ca, size_t cb, unsigned id)
{
	size_t nh = 0;
	struct hoist *hs = ca <= cb ? flow_calls(f, ca, cb, &nh) : NULL;

	strbuf_printf(sb, ON " = __clwarp_b%u && " LIVE "; ", id);
	flow_put_hoists(f, sb, hs, nh);
	/* Where the flag is clear (a return), the loop is over for that
	 * work-item: it must not keep the others going. */
	strbuf_printf(sb, "__clwarp_b%u = " ON " && (", id);
	if (ca <= cb)
		flow_compose(f, sb, ca, cb, hs, nh, NULL, 0);
	else
		strbuf_puts(sb, "1");
	strbuf_printf(sb, ") != 0; " ON " = __clwarp_b%u; if (!clwarp_flow_any(__clwarp_scratch, "
		      "__clwarp_b%u)) break; ", id, id);
	free(hs);
}

void
flow_put_loop_open(struct strbuf *sb, unsigned id)
{
	strbuf_printf(sb, "int __clwarp_b%u = " ON "; for (;;) { int __clwarp_k%u = 1; ", id, id);
}

void
flow_put_loop_close(struct flow *f, struct strbuf *sb, unsigned id, int outer)
{
	strbuf_printf(sb, "} " ON " = __clwarp_s%u && ", id);
	flow_put_alive(sb, outer);
	strbuf_puts(sb, "; }");
	(void)f;
}

/* The header of a for or while loop: init, condition and step ranges
 * (hdr[0..5], empty where first > last) and the body's first token. */
size_t
flow_loop_header(const struct flow *f, size_t a, size_t *hdr)
{
	size_t rp = flow_match(f, a + 1), s1 = rp, s2 = rp;

	if (flow_is(f, a, "for")) {
		for (size_t k = a + 2, depth = 0; k < rp; k++) {
			if (f->t[k].kind == T_LPAREN)
				depth++;
			else if (f->t[k].kind == T_RPAREN)
				depth--;
			else if (f->t[k].kind == T_SEMI && depth == 0)
				*(s1 == rp ? &s1 : &s2) = k;
		}
		hdr[0] = a + 2, hdr[1] = s1 - 1, hdr[2] = s1 + 1, hdr[3] = s2 - 1;
		hdr[4] = s2 + 1, hdr[5] = rp - 1;
	} else {
		hdr[0] = hdr[4] = rp, hdr[1] = hdr[5] = rp - 1;
		hdr[2] = a + 2, hdr[3] = rp - 1;
	}
	return rp;
}
