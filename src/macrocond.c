/* The conditionals around the source rewrite's position, and what their sides define. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "macrocond.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macrotable.h"

/* One macro a conditional's sides changed. */
struct km_change {
	size_t index;
	struct km_macro state;  /* saved: before the side; merged: the sides' agreement */
	unsigned sides;         /* merged: how many of the sides that may be taken changed it */
	unsigned long prev_in;  /* the macro's saved_in (saved) or merged_in (merged) before */
	size_t prev_at;         /* merged: its merged_at before */
};

struct km_cond {
	enum tri live;      /* this side is compiled (the enclosing text included) */
	enum tri taken;     /* this side or an earlier one is taken */
	enum tri outer;     /* the text around the conditional is compiled */
	unsigned possible;  /* sides ended that may be taken */
	unsigned long id;   /* this conditional's number */
	unsigned long side; /* the number of the side now */
	char *where;        /* file:line, where a side's condition is not known */
	char *guard;        /* `#ifndef X` of a name the compiler may define: X */
	struct km_change *saved, *merged;
	size_t nsaved, cap_saved, nmerged, cap_merged;
};

static struct km_cond *
top(const struct kernel_macros *m)
{
	return m->depth ? &m->conds[m->depth - 1] : NULL;
}

enum tri
macro_cond_live(const struct kernel_macros *m)
{
	return m->depth ? top(m)->live : TRI_YES;
}

bool
macro_cond_elif_matters(const struct kernel_macros *m)
{
	const struct km_cond *c = top(m);

	return c && c->outer != TRI_NO && c->taken != TRI_YES;
}

static struct km_change *
push_change(struct km_change **v, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t grown_cap = *cap ? *cap * 2 : 8;
		struct km_change *grown = realloc(*v, grown_cap * sizeof(*grown));

		if (!grown)
			return NULL;
		*v = grown;
		*cap = grown_cap;
	}
	return &(*v)[(*n)++];
}

bool
macro_cond_save(struct kernel_macros *m, size_t index)
{
	struct km_cond *c = top(m);
	struct km_change *s;

	if (!c || m->macros[index].saved_in == c->side)
		return true;
	s = push_change(&c->saved, &c->nsaved, &c->cap_saved);
	if (!s)
		return false;
	s->index = index;
	s->sides = 0;
	s->prev_in = m->macros[index].saved_in;
	if (!macro_state_copy(&s->state, &m->macros[index])) {
		c->nsaved--;
		return false;
	}
	m->macros[index].saved_in = c->side;
	return true;
}

/* Put the table entry `index` in `state` (taken over), its name and
 * macrocond.c's marks kept. */
static void
put_state(struct kernel_macros *m, size_t index, struct km_macro *state)
{
	struct km_macro *e = &m->macros[index];

	macro_state_free(e);
	state->name = e->name;
	state->saved_in = e->saved_in;
	state->merged_in = e->merged_in;
	state->merged_at = e->merged_at;
	*e = *state;
}

/* The agreement entry of the macro at `index` in c; made where new. */
static struct km_change *
merged_entry(struct kernel_macros *m, struct km_cond *c, size_t index)
{
	struct km_macro *e = &m->macros[index];
	struct km_change *g;

	if (e->merged_in == c->id)
		return &c->merged[e->merged_at];
	g = push_change(&c->merged, &c->nmerged, &c->cap_merged);
	if (!g)
		return NULL;
	*g = (struct km_change){ .index = index, .prev_in = e->merged_in, .prev_at = e->merged_at };
	if (!macro_state_copy(&g->state, e)) {
		c->nmerged--;
		return NULL;
	}
	e->merged_in = c->id;
	e->merged_at = c->nmerged - 1;
	return g;
}

/* The end of a side: what it did joins the agreement, and the table goes
 * back to what it was before the conditional. */
static bool
end_side(struct kernel_macros *m, struct km_cond *c)
{
	bool ok = true;

	if (c->live != TRI_NO)
		c->possible++;
	for (size_t i = 0; i < c->nsaved; i++) {
		struct km_change *s = &c->saved[i], *g;
		bool known = m->macros[s->index].merged_in == c->id;

		/* Nothing changes on a side that is not compiled. */
		if (c->live != TRI_NO) {
			g = merged_entry(m, c, s->index);
			if (g && known)
				ok = macro_state_combine(&g->state, &m->macros[s->index], c->where) && ok;
			ok = ok && g;
			if (g)
				g->sides++;
		}
		put_state(m, s->index, &s->state);
		m->macros[s->index].saved_in = s->prev_in;
	}
	c->nsaved = 0;
	return ok;
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

bool
macro_cond_open(struct kernel_macros *m, enum tri v, const char *file, unsigned line)
{
	enum tri outer = macro_cond_live(m);
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
	c->id = ++m->serial;
	c->side = ++m->serial;
	c->live = tri_and(outer, v);
	return c->live != TRI_MAYBE || (c->where = place(file, line)) != NULL;
}

bool
macro_cond_next(struct kernel_macros *m, enum tri v, const char *file, unsigned line)
{
	struct km_cond *c = top(m);
	bool ok;

	if (!c)
		return true;  /* unbalanced: the compiler says so */
	ok = end_side(m, c);
	c->side = ++m->serial;
	c->live = tri_and(c->outer, tri_and(tri_not(c->taken), v));
	c->taken = tri_or(c->taken, v);
	free(c->guard);
	c->guard = NULL;
	if (c->live == TRI_MAYBE && !c->where && !(c->where = place(file, line)))
		return false;
	return ok;
}

/* After #endif: each macro the sides changed, as they agree (the table
 * holds what was before, itself a possibility where a side that may be
 * taken left the macro alone, or where none may be taken). */
static bool
settle(struct kernel_macros *m, struct km_cond *c)
{
	bool ok = true;

	for (size_t i = 0; i < c->nmerged; i++) {
		struct km_change *g = &c->merged[i];

		if (g->sides < c->possible || c->taken != TRI_YES)
			ok = ok && macro_state_combine(&g->state, &m->macros[g->index], c->where);
		ok = ok && macro_cond_save(m, g->index);
		put_state(m, g->index, &g->state);
		m->macros[g->index].merged_in = g->prev_in;
		m->macros[g->index].merged_at = g->prev_at;
	}
	c->nmerged = 0;
	return ok;
}

bool
macro_cond_close(struct kernel_macros *m)
{
	struct km_cond *c = top(m);
	bool ok;

	if (!c)
		return true;
	ok = end_side(m, c);
	m->depth--;
	ok = settle(m, c) && ok;
	free(c->where);
	free(c->guard);
	free(c->saved);
	free(c->merged);
	return ok;
}

bool
macro_cond_note_guard(struct kernel_macros *m, const char *name, size_t len)
{
	struct km_cond *c = top(m);

	if (!c || c->live != TRI_MAYBE || len == 0 || macro_find(m, name, len))
		return true;
	c->guard = strndup(name, len);
	return c->guard != NULL;
}

void
macro_cond_settle_guard(struct kernel_macros *m, bool define, const char *name, size_t len)
{
	struct km_cond *c = top(m);

	if (!c || !c->guard)
		return;
	if (define && macro_is_word(name, len, c->guard)) {
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

void
macro_cond_free(struct kernel_macros *m)
{
	while (m->depth) {
		struct km_cond *c = &m->conds[--m->depth];

		for (size_t i = 0; i < c->nsaved; i++)
			macro_state_free(&c->saved[i].state);
		for (size_t i = 0; i < c->nmerged; i++)
			macro_state_free(&c->merged[i].state);
		free(c->where);
		free(c->guard);
		free(c->saved);
		free(c->merged);
	}
	free(m->conds);
	m->conds = NULL;
	m->cond_cap = 0;
}
