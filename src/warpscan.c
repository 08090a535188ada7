/* The warp-context rewrite's reading of the program: tokens, macros, symbols, declarations. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "warpscan.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"

static bool
ident_start(char ch)
{
	return isalpha((unsigned char)ch) || ch == '_';
}

static bool
ident_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

bool
ws_tok_is(const struct ctx *c, const struct tok *t, const char *word)
{
	size_t len = strlen(word);

	return t->kind == T_IDENT && t->len == len && memcmp(c->text + t->off, word, len) == 0;
}

/* Does the identifier itself use the warp, whatever the symbols say? */
bool
ws_direct_use(const struct ctx *c, const struct tok *t)
{
	return (t->len > 5 && memcmp(c->text + t->off, "warp_", 5) == 0) || ws_tok_is(c, t, SCRATCH) ||
	       ws_tok_is(c, t, "CLWARP_WARP_ARG");
}

/* Words before a parenthesis that never name a function. */
bool
ws_not_a_name(const struct ctx *c, const struct tok *t)
{
	static const char *const words[] = { "__attribute__", "__attribute", "if", "while", "for",
		"switch", "return", "sizeof", "vec_step", "typeof", "__typeof__", "_Alignof",
		"__alignof__", "_Static_assert", "do", "else", "case", "goto", "defined", DEFINE_OP };

	for (size_t i = 0; i < ARRAY_LENGTH(words); i++) {
		if (ws_tok_is(c, t, words[i]))
			return true;
	}
	return false;
}

static uint32_t
hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* The slot of that name in the table: its symbol, or the free slot for it. */
static size_t
slot(const struct ctx *c, const char *s, size_t len)
{
	size_t i = hash(s, len) & (c->table_size - 1);

	for (;; i = (i + 1) & (c->table_size - 1)) {
		int32_t k = c->table[i];

		if (k < 0 || (c->syms[k].len == len && memcmp(c->syms[k].name, s, len) == 0))
			return i;
	}
}

int32_t
ws_sym_find(const struct ctx *c, const struct tok *t)
{
	return c->table[slot(c, c->text + t->off, t->len)];
}

/* The symbol of that name, made on first sight. The table is sized up front
 * for every name that can become a symbol, so it never fills. */
int32_t
ws_sym_get(struct ctx *c, const char *s, size_t len, unsigned kind)
{
	size_t i = slot(c, s, len);
	int32_t k = c->table[i];

	if (k < 0) {
		if (c->nsyms * 2 + 2 > c->table_size || !PUSH(c, c->syms, c->nsyms, c->cap_syms))
			return c->failed = true, -1;
		k = (int32_t)c->nsyms++;
		memset(&c->syms[k], 0, sizeof(c->syms[k]));
		c->syms[k].name = s;
		c->syms[k].len = (uint32_t)len;
		c->syms[k].manual = c->syms[k].automatic = c->syms[k].users = -1;
		c->table[i] = k;
	}
	c->syms[k].kinds |= kind;
	return k;
}

/* "file:line" of a token, the file's name as the #line marker wrote it, unescaped. */
void
ws_put_pos(const struct ctx *c, struct strbuf *sb, const struct tok *t)
{
	const char *f = c->files[t->file].text;
	size_t len = c->files[t->file].len;

	for (size_t i = 0; i < len; i++) {
		if (t->file > 0 && f[i] == '\\' && i + 1 < len)
			i++;
		strbuf_append(sb, f + i, 1);
	}
	strbuf_printf(sb, ":%u", t->line);
}

/* Record the build's one message, "file:line: ...": the first problem found wins. */
void
ws_fail(struct ctx *c, const struct tok *at, const char *fmt, ...)
{
	struct strbuf sb = { 0 };
	char msg[1024];
	va_list ap;

	if (c->error)
		return;
	c->error = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ws_put_pos(c, &sb, at);
	strbuf_printf(&sb, ": %s", msg);
	set_error(CLWARP_ERROR_BUILD, "%s", sb.failed ? msg : sb.data);
	strbuf_free(&sb);
}

/* A token's text for a message (names are short; longer text is cut). */
const char *
ws_tok_text(const struct ctx *c, const struct tok *from, const struct tok *to, char *buf, size_t size)
{
	snprintf(buf, size, "%.*s", (int)(to->off + to->len - from->off), c->text + from->off);
	return buf;
}

static void
add_tok(struct ctx *c, struct toks *ts, enum tok_kind kind, const char *p, size_t len,
	uint32_t line, uint32_t file, int32_t macro)
{
	struct tok *t;

	if (!PUSH(c, ts->v, ts->n, ts->cap))
		return;
	t = &ts->v[ts->n++];
	memset(t, 0, sizeof(*t));
	t->off = (uint32_t)(p - c->text);
	t->len = (uint32_t)len;
	t->line = line;
	t->file = file;
	t->macro = macro;
	t->sym = -1;
	t->kind = (uint8_t)kind;
}

/* A preprocessor line at p: #line moves the position (from the next line
 * on), #define opens a macro whose name and parameters are read here and
 * whose body the caller reads; anything else is skipped. */
static const char *
directive(struct ctx *c, const char *p, uint32_t line, uint32_t file, int32_t *define,
	  bool *skip, uint32_t *next_line, int32_t *next_file)
{
	const char *q = p + 1, *n;

	*skip = true;
	while (*q == ' ' || *q == '\t')
		q++;
	if (strncmp(q, "define", 6) == 0 && !ident_char(q[6])) {
		for (n = q + 6; *n == ' ' || *n == '\t'; n++)
			;
		if (!ident_start(*n) || !PUSH(c, c->macros, c->nmacros, c->cap_macros))
			return n;
		for (q = n; ident_char(*q); q++)
			;
		c->macros[c->nmacros].name = (uint32_t)c->mac.n;
		add_tok(c, &c->mac, T_IDENT, n, (size_t)(q - n), line, file, (int32_t)c->nmacros);
		c->macros[c->nmacros].params = (uint32_t)c->mac.n;
		if (*q == '(') {
			for (q++; *q && *q != ')' && *q != '\n'; q++) {
				if (ident_start(*q)) {
					for (n = q; ident_char(q[1]); q++)
						;
					add_tok(c, &c->mac, T_IDENT, n, (size_t)(q - n + 1), line, file,
						(int32_t)c->nmacros);
				}
			}
			if (*q == ')')
				q++;
		}
		c->macros[c->nmacros].body = c->macros[c->nmacros].end = (uint32_t)c->mac.n;
		*define = (int32_t)c->nmacros++;
		*skip = false;
		return q;
	}
	if (strncmp(q, "line", 4) == 0 && !ident_char(q[4])) {
		char *after;
		unsigned long number = strtoul(q + 4, &after, 10);

		for (n = after; *n == ' ' || *n == '\t'; n++)
			;
		*next_line = (uint32_t)number;
		if (*n == '"' && PUSH(c, c->files, c->nfiles, c->cap_files)) {
			for (q = n + 1; *q && *q != '"' && *q != '\n'; q += q[0] == '\\' && q[1] ? 2 : 1)
				;
			c->files[c->nfiles].text = n + 1;
			c->files[c->nfiles].len = (size_t)(q - n - 1);
			*next_file = (int32_t)c->nfiles++;
		}
	}
	return q;
}

/* The token at @p p (not a blank, comment or literal): its length, and
 * its kind in *kind. */
static size_t
token_at(const struct ctx *c, const char *p, enum tok_kind *kind)
{
	char ch = *p;
	size_t len = 1;

	*kind = T_OTHER;
	if (ident_start(ch)) {
		while (ident_char(p[len]))
			len++;
		*kind = T_IDENT;
	} else if (isdigit((unsigned char)ch) || (ch == '.' && isdigit((unsigned char)p[1]))) {
		while (ident_char(p[len]) || p[len] == '.' ||
		       ((p[len] == '+' || p[len] == '-') && strchr("eEpP", p[len - 1])))
			len++;
	} else if (ch == '-' && p[1] == '>') {
		*kind = T_MEMBER;
		len = 2;
	} else if (ch == '#' && p[1] == '#') {
		*kind = T_PASTE;
		len = 2;
	} else if (ch == '=') {
		if (p[1] == '=')
			len = 2;
		else if (p == c->text || !strchr("<>!=+-*/%&|^", p[-1]))
			*kind = T_ASSIGN;
	} else {
		static const char kinds[] = "(){},;.";
		static const enum tok_kind of[] = { T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE,
						    T_COMMA, T_SEMI, T_MEMBER };
		const char *k = strchr(kinds, ch);

		if (k)
			*kind = of[k - kinds];
	}
	return len;
}

/* Split the text into the tokens the analysis needs. Comments, string and
 * character literals and every directive but #define are skipped; numbers
 * are one token, so `1ul` names nothing. */
void
ws_tokenize(struct ctx *c)
{
	const char *p = c->text;
	uint32_t line = 1, file = 0, next_line = 0;
	int32_t next_file = -1, define = -1;
	bool line_start = true, skip = false;

	while (*p && !c->failed) {
		char ch = *p;
		struct toks *ts = define >= 0 ? &c->mac : &c->top;
		enum tok_kind kind;
		size_t len;

		if (ch == '\n') {
			if (define >= 0)
				c->macros[define].end = (uint32_t)c->mac.n;
			define = -1;
			skip = false;
			line_start = true;
			line = next_line ? next_line : line + 1;
			file = next_file >= 0 ? (uint32_t)next_file : file;
			next_line = 0;
			next_file = -1;
			p++;
			continue;
		}
		if (ch == '\\' && p[1] == '\n') {
			line++;
			p += 2;
			continue;
		}
		if (isspace((unsigned char)ch)) {
			p++;
			continue;
		}
		if (ch == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (ch == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			const char *stop = end ? end + 2 : p + strlen(p);

			for (; p < stop; p++)
				line += *p == '\n';
			continue;
		}
		if (line_start && ch == '#') {
			line_start = false;
			p = directive(c, p, line, file, &define, &skip, &next_line, &next_file);
			continue;
		}
		line_start = false;
		if (ch == '"' || ch == '\'') {
			for (p++; *p && *p != ch && *p != '\n'; p += p[0] == '\\' && p[1] && p[1] != '\n' ? 2 : 1)
				;
			if (*p == ch)
				p++;
			continue;
		}
		if (skip) {
			p++;
			continue;
		}
		len = token_at(c, p, &kind);
		add_tok(c, ts, kind, p, len, line, file, define);
		p += len;
	}
	if (define >= 0)
		c->macros[define].end = (uint32_t)c->mac.n;
}

/* The token that closes the group t[i] opens, or `last`. */
size_t
ws_match(const struct tok *t, size_t i, size_t last)
{
	uint8_t open = t[i].kind, close = open == T_LPAREN ? T_RPAREN : T_RBRACE;
	size_t depth = 0;

	for (; i < last; i++) {
		if (t[i].kind == open)
			depth++;
		else if (t[i].kind == close && --depth == 0)
			return i;
	}
	return last;
}

bool
ws_is_macro_param(const struct ctx *c, const struct tok *t)
{
	const struct macro *m;

	if (t->macro < 0)
		return false;
	m = &c->macros[t->macro];
	for (uint32_t i = m->params; i < m->body; i++) {
		const struct tok *p = &c->mac.v[i];

		if (p->len == t->len && memcmp(c->text + p->off, c->text + t->off, t->len) == 0)
			return true;
	}
	return false;
}

static bool
is_macro_name(const struct ctx *c, const struct tok *t)
{
	int32_t k = ws_sym_find(c, t);

	return k >= 0 && (c->syms[k].kinds & SYM_MACRO);
}

/* A declarator whose name is t[name] (`anon`: made by a macro; then the
 * "parameters" are everything from t[name] to the body). */
static void
add_decl(struct ctx *c, struct toks *ts, size_t name, size_t first, size_t rparen, size_t body,
	 size_t end, bool kernel, int32_t macro, bool anon)
{
	struct tok *t = ts->v;
	struct decl *d;
	bool pasted = anon || (macro >= 0 && (ws_is_macro_param(c, &t[name]) ||
					      (name > first && t[name - 1].kind == T_PASTE)));

	/* A kernel in a macro body gets no hidden parameter, so none of this applies. */
	if ((kernel && macro >= 0) || !PUSH(c, c->decls, c->ndecls, c->cap_decls))
		return;
	d = &c->decls[c->ndecls++];
	*d = (struct decl){ ts, -1, macro, (uint32_t)name, (uint32_t)name + !anon, (uint32_t)rparen,
			    (uint32_t)body, (uint32_t)end };
	if (!pasted) {
		d->sym = ws_sym_get(c, c->text + t[name].off, t[name].len, kernel ? SYM_KERNEL : SYM_FUNC);
		t[name].decl_name = true;
	}
	for (size_t i = body + 1; i < end; i++)
		t[i].in_body = true;
}

/* A macro's arguments at file scope, e.g. `FIELD(k, helper(v))`, usually
 * land in a function body: calls there get the context too. */
static void
mark_args(struct tok *t, size_t lparen, size_t rparen, int32_t macro)
{
	for (size_t i = lparen + 1; macro < 0 && i < rparen; i++)
		t[i].in_body = true;
}

/* Find the function definitions and prototypes in t[first, last): file
 * scope, or a #define body (`macro`), where a call statement is no
 * prototype unless a type name comes before it. */
void
ws_scan_decls(struct ctx *c, struct toks *ts, size_t first, size_t last, int32_t macro)
{
	struct tok *t = ts->v;
	bool kernel = false, init = false, after_group = false;
	size_t start = first;

	for (size_t i = first; i < last && !c->failed;) {
		const struct tok *k = &t[i];

		if (k->kind == T_LBRACE || k->kind == T_LPAREN) {
			size_t e = ws_match(t, i, last);

			/* `{` right after a parenthesis that no name opened: the name
			 * came out of a macro, e.g. `float CAT(f, T)(float x) {`. */
			if (k->kind == T_LBRACE && after_group && !init)
				add_decl(c, ts, start, first, i, i, e, kernel, macro, true);
			after_group = k->kind == T_LPAREN;
			if (k->kind == T_LBRACE)
				start = e + 1;
			i = e + 1;
			continue;
		}
		if (k->kind == T_IDENT && i + 1 < last && t[i + 1].kind == T_LPAREN && !init &&
		    !ws_not_a_name(c, k) && !is_macro_name(c, k)) {
			size_t rp = ws_match(t, i + 1, last), j = rp + 1;

			/* Attributes and the user's macros may sit between `)` and `{`. */
			while (j < last && t[j].kind == T_IDENT &&
			       (ws_tok_is(c, &t[j], "__attribute__") || is_macro_name(c, &t[j]))) {
				j++;
				if (j < last && t[j].kind == T_LPAREN)
					j = ws_match(t, j, last) + 1;
			}
			if (j < last && t[j].kind == T_LBRACE) {
				size_t e = ws_match(t, j, last);

				add_decl(c, ts, i, first, rp, j, e, kernel, macro, false);
				i = start = e + 1;
				kernel = after_group = false;
				continue;
			}
			if (j < last && (t[j].kind == T_SEMI || t[j].kind == T_COMMA) &&
			    (macro < 0 || (i > first && t[i - 1].kind == T_IDENT && !ws_not_a_name(c, &t[i - 1])))) {
				add_decl(c, ts, i, first, rp, j, j, kernel, macro, false);
				i = j;
				after_group = false;
				continue;
			}
			mark_args(t, i + 1, rp, macro);
			i = rp + 1;
			after_group = true;
			continue;
		}
		if (k->kind == T_IDENT && i + 1 < last && t[i + 1].kind == T_LPAREN) {
			/* An attribute, a keyword or a macro's invocation. */
			size_t rp = ws_match(t, i + 1, last);

			if (!ws_not_a_name(c, k) || ws_tok_is(c, k, DEFINE_OP))
				mark_args(t, i + 1, rp, macro);
			i = rp + 1;
			after_group = false;
			continue;
		}
		if (k->kind == T_SEMI) {
			kernel = init = false;
			start = i + 1;
		} else if (k->kind == T_COMMA) {
			init = false;
		} else if (k->kind == T_ASSIGN) {
			init = true;
		} else if (ws_tok_is(c, k, "kernel") || ws_tok_is(c, k, "__kernel")) {
			kernel = true;
		}
		after_group = false;
		i++;
	}
}
