/* The macros a program defines, by name: what the source rewrite knows of each. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "macrotable.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const compiler_prefixes[] = {
	"cl_", "CL_", "cles_", "CLK_", "CLWARP", "warp_", "FLT_", "DBL_", "HALF_", "FP_", "M_",
	"CHAR_", "SCHAR_", "UCHAR_", "SHRT_", "USHRT_", "INT_", "UINT_", "LONG_", "ULONG_",
	"MAXFLOAT", "HUGE_VAL", "INFINITY", "NAN", "NULL", "ATOMIC_",
};

bool
macro_is_word(const char *name, size_t len, const char *word)
{
	return strlen(word) == len && strncmp(name, word, len) == 0;
}

bool
macro_compiler_may_define(const char *name, size_t len)
{
	if (len >= 2 && name[0] == '_' && (name[1] == '_' || isupper((unsigned char)name[1])))
		return true;
	for (size_t i = 0; i < sizeof(compiler_prefixes) / sizeof(compiler_prefixes[0]); i++) {
		size_t n = strlen(compiler_prefixes[i]);

		if (len >= n && strncmp(name, compiler_prefixes[i], n) == 0)
			return true;
	}
	return false;
}

static size_t
hash(const char *name, size_t len)
{
	uint64_t h = 1469598103934665603u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211u;
	return (size_t)h;
}

/* The slot of `name`: its macro's, or the empty one it would take. */
static size_t *
slot_of(const struct kernel_macros *m, const char *name, size_t len)
{
	size_t mask = m->slot_count - 1;

	for (size_t i = hash(name, len) & mask;; i = (i + 1) & mask) {
		size_t *s = &m->slots[i];

		if (*s == 0 || macro_is_word(name, len, m->macros[*s - 1].name))
			return s;
	}
}

struct km_macro *
macro_find(const struct kernel_macros *m, const char *name, size_t len)
{
	size_t *s = m->slot_count ? slot_of(m, name, len) : NULL;

	return s && *s ? &m->macros[*s - 1] : NULL;
}

static bool
grow_slots(struct kernel_macros *m)
{
	size_t count = m->slot_count ? m->slot_count * 2 : 64;
	size_t *slots = calloc(count, sizeof(*slots));

	if (!slots)
		return false;
	free(m->slots);
	m->slots = slots;
	m->slot_count = count;
	for (size_t i = 0; i < m->count; i++) {
		const char *name = m->macros[i].name;

		*slot_of(m, name, strlen(name)) = i + 1;
	}
	return true;
}

struct km_macro *
macro_entry(struct kernel_macros *m, const char *name, size_t len)
{
	struct km_macro *e = macro_find(m, name, len), *grown;

	if (e)
		return e;
	if ((m->count + 1) * 2 > m->slot_count && !grow_slots(m))
		return NULL;
	if (m->count == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 32;

		grown = realloc(m->macros, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		m->macros = grown;
		m->cap = cap;
	}
	e = &m->macros[m->count];
	*e = (struct km_macro){ .name = strndup(name, len) };
	if (!e->name)
		return NULL;
	e->defined = macro_compiler_may_define(name, len) ? TRI_MAYBE : TRI_NO;
	*slot_of(m, name, len) = ++m->count;
	return e;
}

enum tri
macro_lookup(void *ctx, const char *name, size_t len, const char **body, const char **body_end)
{
	const struct km_macro *e = macro_find(ctx, name, len);

	*body = *body_end = NULL;
	if (!e)
		return macro_compiler_may_define(name, len) ? TRI_MAYBE : TRI_NO;
	if (e->defined == TRI_YES && e->body && !e->function_like) {
		*body = e->body;
		*body_end = e->body + strlen(e->body);
	}
	return e->defined;
}

static bool
dup_field(char **dst, const char *src)
{
	*dst = src ? strdup(src) : NULL;
	return !src || *dst;
}

bool
macro_state_copy(struct km_macro *dst, const struct km_macro *src)
{
	*dst = *src;
	dst->name = NULL;
	if (dup_field(&dst->body, src->body) && dup_field(&dst->params, src->params) &&
	    dup_field(&dst->where, src->where))
		return true;
	macro_state_free(dst);
	return false;
}

void
macro_state_free(struct km_macro *state)
{
	free(state->body);
	free(state->params);
	free(state->where);
	state->body = state->params = state->where = NULL;
}

static bool
same_text(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

bool
macro_state_combine(struct km_macro *into, const struct km_macro *other, const char *where)
{
	bool alike = into->function_like == other->function_like;

	if (into->defined != other->defined)
		into->defined = TRI_MAYBE;
	if (!alike || !same_text(into->body, other->body)) {
		free(into->body);
		into->body = NULL;
	}
	if (!alike || !same_text(into->params, other->params)) {
		free(into->params);
		into->params = NULL;
	}
	if (into->kind == other->kind)
		return true;
	into->kind = KIND_MAYBE;
	if (!into->where)
		return dup_field(&into->where, other->where ? other->where : where ? where : "?");
	return true;
}
