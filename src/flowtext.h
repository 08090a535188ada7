/* The warp-flow rewrite's reading and writing of statements (src/warpflow.c). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_FLOWTEXT_H
#define CLWARP_FLOWTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"
#include "warpscan.h"

#define FLOW_ON "__clwarp_on"
#define FLOW_LIVE "__clwarp_live"

/* A warp call moved out of its statement into __clwarp_t<id>. */
struct hoist {
	size_t a, b;  /* its name token and its closing parenthesis */
	unsigned id;
};

struct flow {
	struct ctx *c;
	struct tok *t;
	size_t n;
	bool *served;          /* per symbol: defined in libclwarp's own code (clwarp/...) */
	bool *on_after;        /* a helper call's context argument: the flag follows it */
	char **owned;          /* the strings the edits point into */
	size_t nowned, cap_owned;
	unsigned ids;          /* names of temporaries and flags, program-wide */
	const struct decl *d;  /* the function being rewritten */
	bool kernel, used, need_rv;
	int loop;              /* the innermost rewritten loop's id; -1: none */
	size_t prefix;         /* _Pragma(...) or __attribute__((...)) at t[prefix] ... */
	size_t prefix_of;      /* ... before the statement that starts at t[prefix_of]; SIZE_MAX: none */
};

/* What a statement holds. */
struct flow_info {
	bool wcall;    /* a warp call, a barrier, or a call of a function that makes them */
	bool ret;      /* a return */
	bool jump;     /* a break or continue of an enclosing loop */
	bool condop;   /* ?:, && or ||, whose operands may not all run */
	bool other;    /* a switch or goto around a warp call */
};

enum flow_decl { FLOW_NOT_DECL, FLOW_DECL, FLOW_KEEP };

bool flow_is(const struct flow *f, size_t k, const char *word);
bool flow_ch(const struct flow *f, size_t k, char ch);
size_t flow_match(const struct flow *f, size_t k);
/* `_Pragma(...)` or `__attribute__((...))` at k, before a statement. */
bool flow_prefix(const struct flow *f, size_t k);
/* The last token of the statement that starts at k (the body ends at `last`). */
size_t flow_stmt_end(const struct flow *f, size_t k, size_t last);
bool flow_is_wcall(struct flow *f, size_t k);
bool flow_is_helper(struct flow *f, size_t k);
void flow_classify(struct flow *f, size_t a, size_t b, struct flow_info *info);
enum flow_decl flow_declaration(const struct flow *f, size_t a, size_t e);
/* Can the declaration t[a..e] start its names at 0 (scalars, vectors, pointers)? */
bool flow_zero_init(const struct flow *f, size_t a, size_t e);
/* Arguments that read memory or call functions are read behind the flag. */
bool flow_unsafe(const struct flow *f, size_t a, size_t b);
/* The arguments of the call t[a..b] that flow_unsafe finds, as pairs of
 * token indices in `guards` (at most `max` pairs); returns their count. */
size_t flow_unsafe_args(const struct flow *f, size_t a, size_t b, size_t *guards, size_t max);

/* Text: a token range as one line, comments dropped, warp calls replaced
 * by their temporaries, the flag passed to helpers, `guards` (pairs of
 * token ranges) read only where the flag is set. */
void flow_compose(struct flow *f, struct strbuf *sb, size_t a, size_t b, const struct hoist *hs,
		  size_t nh, const size_t *guards, size_t ng);
/* A macro whose body is statements, which the flow rewrite cannot move. */
bool flow_statement_macro(const struct flow *f, size_t k);
/* The build's message for one, at the user's line. */
void flow_fail_macro(struct flow *f, size_t k);
/* The warp calls of t[a..b], innermost first; NULL: none (*n = 0) or out of memory. */
struct hoist *flow_calls(struct flow *f, size_t a, size_t b, size_t *n);
/* `__typeof__(CALL) __clwarp_tN = CALL;` for each hoist, in order. */
void flow_put_hoists(struct flow *f, struct strbuf *sb, struct hoist *hs, size_t nh);
/* Newlines between two offsets, as text: what a deletion must leave. */
void flow_put_newlines(const struct flow *f, struct strbuf *sb, size_t from, size_t to);
/* An edit whose text is sb's (taken over). */
void flow_edit(struct flow *f, size_t off, size_t del, struct strbuf *sb);
void flow_edit_str(struct flow *f, size_t off, size_t del, const char *s);
size_t flow_end_off(const struct flow *f, size_t k);
/* Kernels: `kernel`, `__kernel` or a macro that starts with one comes before the name. */
bool flow_is_kernel(const struct flow *f, const struct decl *d);
/* A function that makes warp calls and takes the flag (kernels too: see flow_is_kernel). */
bool flow_helper_sym(const struct flow *f, int32_t k);
/* The words before a helper's name that name its return type, each
 * followed by a space; false: none found. */
bool flow_return_type(const struct flow *f, const struct decl *d, struct strbuf *sb);
/* A non-void helper whose returns need __clwarp_rv: any but one last. */
bool flow_needs_rv(const struct flow *f, const struct decl *d);

#endif
