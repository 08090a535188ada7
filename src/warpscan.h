/* The warp-context rewrite's reading of the program: tokens, macros, symbols, declarations. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_WARPSCAN_H
#define CLWARP_WARPSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "util.h"
#include "warpctx.h"

#define SCRATCH "__clwarp_scratch"
#define DEFINE_OP "CLWARP_DEFINE_WARP_OP"
#define BY_HAND "give it CLWARP_WARP_PARAM as a parameter by hand and pass CLWARP_WARP_ARG at its calls"

enum tok_kind { T_IDENT, T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_COMMA, T_SEMI,
		T_ASSIGN, T_MEMBER, T_PASTE, T_OTHER };

struct tok {
	uint32_t off, len;
	uint32_t line, file;  /* for messages: the user's line, an index into files */
	int32_t macro;        /* the #define whose name, parameters or body it is; -1: none */
	int32_t sym;          /* the symbol a body's identifier names; -1: none */
	uint8_t kind;
	bool decl_name;       /* the name of a function declarator */
	bool in_body;         /* in a function or macro body: where calls are rewritten */
};

/* The program's tokens and the #define bodies' live apart, so the
 * file-scope scan never trips over a macro body in the middle of it. */
struct toks {
	struct tok *v;
	size_t n, cap;
};

struct macro {
	int32_t sym;
	uint32_t name, params, body, end;  /* in mac: params up to body, body up to end */
};

enum { SYM_FUNC = 1, SYM_MACRO = 2, SYM_KERNEL = 4, SYM_OP = 8 };

struct sym {
	const char *name;
	uint32_t len;
	unsigned kinds;
	bool uses;        /* uses the warp: the fixed point */
	bool ctx;         /* the rewrite passes it the context first */
	int32_t manual, automatic;  /* a declaration with / without CLWARP_WARP_PARAM; -1: none */
	int32_t users;    /* head of the list of edges to the symbols whose bodies name this one */
	char *owned;
};

struct decl {
	struct toks *ts;
	int32_t sym;      /* -1: the name is made by a macro */
	int32_t macro;    /* in the body of this #define; -1: at file scope */
	uint32_t name, lparen, rparen, body, end;  /* body == end: a prototype */
};

struct edit {
	size_t off, del, seq;
	const char *ins;
};

struct ctx {
	enum warpctx_mode mode;
	const char *text;
	const char *name;
	struct toks top, mac;
	struct { const char *text; size_t len; } *files;
	size_t nfiles, cap_files;
	struct macro *macros;
	size_t nmacros, cap_macros;
	struct decl *decls;
	size_t ndecls, cap_decls;
	struct sym *syms;
	size_t nsyms, cap_syms;
	int32_t *table;           /* open addressing over syms */
	size_t table_size;
	struct { int32_t user, next; } *edges;
	size_t nedges, cap_edges;
	struct edit *edits;
	size_t nedits, cap_edits;
	bool failed, error;       /* out of memory; a message is set */
};

static inline bool
ws_grow(struct ctx *c, void **v, size_t n, size_t *cap, size_t size)
{
	size_t want = *cap ? *cap * 2 : 64;
	void *p;

	if (n < *cap)
		return true;
	p = c->failed ? NULL : realloc(*v, want * size);
	if (!p)
		return c->failed = true, false;
	*v = p;
	*cap = want;
	return true;
}

#define PUSH(c, arr, n, cap) ws_grow((c), (void **)&(arr), (n), &(cap), sizeof(*(arr)))

bool ws_grow(struct ctx *c, void **v, size_t n, size_t *cap, size_t size);
bool ws_tok_is(const struct ctx *c, const struct tok *t, const char *word);
/* Does the identifier itself use the warp, whatever the symbols say? */
bool ws_direct_use(const struct ctx *c, const struct tok *t);
/* Words before a parenthesis that never name a function. */
bool ws_not_a_name(const struct ctx *c, const struct tok *t);
/* The symbol a token names; -1: none. */
int32_t ws_sym_find(const struct ctx *c, const struct tok *t);
/* The symbol of that name, made on first sight (c->table must be sized for it). */
int32_t ws_sym_get(struct ctx *c, const char *s, size_t len, unsigned kind);
/* "file:line" of a token. */
void ws_put_pos(const struct ctx *c, struct strbuf *sb, const struct tok *t);
/* Record the build's one message, "file:line: ...": the first problem found wins. */
void ws_fail(struct ctx *c, const struct tok *at, const char *fmt, ...) CLWARP_PRINTF(3, 4);
/* The text from one token to another, for a message. */
const char *ws_tok_text(const struct ctx *c, const struct tok *from, const struct tok *to, char *buf,
			size_t size);
/* Split c->text into c->top and c->mac, and find the macros and #line positions. */
void ws_tokenize(struct ctx *c);
/* The token that closes the group t[i] opens, or `last`. */
size_t ws_match(const struct tok *t, size_t i, size_t last);
bool ws_is_macro_param(const struct ctx *c, const struct tok *t);
/* Find the function definitions and prototypes in ts->v[first, last) (file scope, or a #define body). */
void ws_scan_decls(struct ctx *c, struct toks *ts, size_t first, size_t last, int32_t macro);

/* The analysis of src/warpctx.c, for the passes that read the same program. */
bool wc_start(struct ctx *c, const struct strbuf *text, const char *name, enum warpctx_mode mode);
/* Tokens, declarations, macros, symbols and which of them use the warp. */
void wc_analyse(struct ctx *c);
void wc_add_edit(struct ctx *c, size_t off, size_t del, const char *ins);
/* Apply the edits in offset order; an edit inside a deleted range is dropped. */
void wc_apply_edits(struct ctx *c, struct strbuf *text);
void wc_free(struct ctx *c);

#endif
