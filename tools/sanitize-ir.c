/* clwarp-run --sanitize: inlined call chains from Oclgrind's IR dumps (sanitize-ir.h). */
/* SPDX-License-Identifier: MIT */
#include "sanitize-ir.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNSET UINT_MAX

struct ir {
	const char *text;
	const char **node; /* node[n]: the line "!n = ...", or NULL */
	unsigned *slot;    /* the number LLVM's walk gave node n, or UNSET */
	unsigned nodes;    /* the highest node's number + 1 */
	unsigned next;     /* the next number the walk gives */
};

/* The operand fields of the metadata kinds whose text lists them in
 * another order than LLVM numbers them (file first, then scope); the
 * other kinds list them in order. */
static const struct {
	const char *kind;
	const char *fields[13];
} REORDERED[] = {
	{ "!DISubprogram(", { "file", "scope", "type", "unit", "declaration", "retainedNodes",
			      "containingType", "templateParams", "thrownTypes", "annotations" } },
	{ "!DIDerivedType(", { "file", "scope", "baseType", "extraData", "annotations" } },
	{ "!DICompositeType(", { "file", "scope", "baseType", "elements", "vtableHolder", "templateParams",
				 "discriminator", "dataLocation", "associated", "allocated", "rank",
				 "annotations" } },
	{ "!DILexicalBlock(", { "file", "scope" } },
	{ "!DILexicalBlockFile(", { "file", "scope" } },
};

static const char *
line_end(const char *p)
{
	const char *e = strchr(p, '\n');

	return e ? e : p + strlen(p);
}

/* The node number of a reference "!N" at @p p, or UNSET. */
static unsigned
ref_at(const char *p, const char *end)
{
	if (p + 1 >= end || p[0] != '!' || !isdigit((unsigned char)p[1]))
		return UNSET;
	return (unsigned)strtoul(p + 1, NULL, 10);
}

static void visit(struct ir *m, unsigned n);

/* Visits every reference in [p, end), in the order of the text. */
static void
visit_text(struct ir *m, const char *p, const char *end)
{
	for (; p < end; p++) {
		unsigned n = ref_at(p, end);

		if (n != UNSET && (p == m->text || !isalnum((unsigned char)p[-1])))
			visit(m, n);
	}
}

/* Where field @p name ("scope") of the node text [p, end) holds a
 * reference: at its '!', or NULL. */
static const char *
field_ref(const char *p, const char *end, const char *name)
{
	size_t n = strlen(name);

	for (const char *q = strstr(p, name); q && q < end; q = strstr(q + 1, name)) {
		if ((q[-1] == '(' || q[-1] == ' ') && !strncmp(q + n, ": !", 3) && q + n + 2 < end)
			return q + n + 2;
	}
	return NULL;
}

/* LLVM's SlotTracker: a node gets the next number when first met, then
 * its operands are visited in their order. */
static void
visit(struct ir *m, unsigned n)
{
	const char *line, *end, *body;

	if (n >= m->nodes || !m->node[n] || m->slot[n] != UNSET)
		return;
	m->slot[n] = m->next++;
	line = m->node[n];
	end = line_end(line);
	body = strstr(line, " = ");
	for (size_t k = 0; k < sizeof(REORDERED) / sizeof(REORDERED[0]); k++) {
		const char *kind = strstr(body, REORDERED[k].kind);

		if (!kind || kind > end)
			continue;
		for (size_t f = 0; f < 13 && REORDERED[k].fields[f]; f++) {
			const char *ref = field_ref(kind, end, REORDERED[k].fields[f]);

			if (ref)
				visit(m, ref_at(ref, end));
		}
		return;
	}
	visit_text(m, body, end);
}

/* The module's own metadata: that of its global variables, then its
 * named metadata ("!name = !{...}"), as SlotTracker::processModule. */
static void
visit_module(struct ir *m)
{
	for (int pass = 0; pass < 2; pass++) {
		for (const char *p = m->text; *p;) {
			const char *end = line_end(p);

			if ((pass == 0 && p[0] == '@') || (pass == 1 && p[0] == '!' && isalpha((unsigned char)p[1])))
				visit_text(m, pass == 0 ? p : strstr(p, " = "), end);
			p = *end ? end + 1 : end;
		}
	}
}

/* A function from its "define"/"declare" line @p p: its metadata, then
 * each instruction's. Returns where the text after it starts. */
static const char *
visit_function(struct ir *m, const char *p)
{
	const char *end = line_end(p);
	bool body = !strncmp(p, "define ", 7);

	visit_text(m, p, end);
	p = *end ? end + 1 : end;
	while (body && *p && strncmp(p, "}", 1) != 0) {
		end = line_end(p);
		visit_text(m, p, end);
		p = *end ? end + 1 : end;
	}
	return p;
}

static bool
is_function(const char *p)
{
	return !strncmp(p, "define ", 7) || !strncmp(p, "declare ", 8);
}

/* Numbers as the whole module's text does; whether that gives every node
 * its number in @p m's text (the walk above is LLVM's). */
static bool
numbering_holds(struct ir *m)
{
	for (unsigned n = 0; n < m->nodes; n++)
		m->slot[n] = UNSET;
	m->next = 0;
	visit_module(m);
	for (const char *p = m->text; *p;) {
		if (is_function(p))
			p = visit_function(m, p);
		p = *line_end(p) ? line_end(p) + 1 : line_end(p);
	}
	for (unsigned n = 0; n < m->nodes; n++) {
		if (m->node[n] && m->slot[n] != n)
			return false;
	}
	return true;
}

/* The part of an instruction before its attributes and metadata. */
static size_t
instr_head(const char *p, const char *end)
{
	const char *q = p;

	for (; q < end; q++) {
		if ((q[0] == ',' && q[1] == ' ' && q[2] == '!') ||
		    (q[0] == ' ' && q[1] == '#' && isdigit((unsigned char)q[2])))
			break;
	}
	return (size_t)(q - p);
}

/* The node that the function at @p fn numbers @p num when printed alone,
 * if its body holds an instruction with the head of @p instr and that
 * node as !dbg; else UNSET. */
static unsigned
dbg_in_function(struct ir *m, const char *fn, const char *instr, unsigned num)
{
	size_t head = instr_head(instr, instr + strlen(instr));
	unsigned node = UNSET;
	char dbg[32];
	const char *p;

	for (unsigned n = 0; n < m->nodes; n++)
		m->slot[n] = UNSET;
	m->next = 0;
	visit_module(m);
	visit_function(m, fn);
	for (unsigned n = 0; n < m->nodes && node == UNSET; n++) {
		if (m->slot[n] == num)
			node = n;
	}
	if (node == UNSET)
		return UNSET;
	snprintf(dbg, sizeof(dbg), "!dbg !%u", node);
	for (p = line_end(fn); *p && strncmp(p + 1, "}", 1) != 0;) {
		const char *end, *at;

		p++;
		end = line_end(p);
		while (*p == ' ')
			p++;
		at = strstr(p, dbg);
		if (at && at < end && !isdigit((unsigned char)at[strlen(dbg)]) && instr_head(p, end) == head &&
		    !strncmp(p, instr, head))
			return node;
		p = end;
	}
	return UNSET;
}

/* The node line's field @p key ("(line: ") as a number, 0 when absent. */
static unsigned
field_uint(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p && p < line_end(line) ? (unsigned)strtoul(p + strlen(key), NULL, 10) : 0;
}

/* A quoted field (@p key: "name: \"") into @p out. */
static void
field_string(const char *line, const char *key, char *out, size_t size)
{
	const char *p = strstr(line, key), *q;

	out[0] = '\0';
	if (!p || p > line_end(line))
		return;
	p += strlen(key);
	q = strchr(p, '"');
	if (q)
		snprintf(out, size, "%.*s", (int)(q - p), p);
}

static const char *
node(const struct ir *m, unsigned n)
{
	return n < m->nodes ? m->node[n] : NULL;
}

/* The file and function of scope !@p scope (a DISubprogram, or a block
 * inside one) into @p f. */
static void
scope_of(const struct ir *m, unsigned scope, struct ir_frame *f)
{
	for (int depth = 0; depth < 64; depth++) {
		const char *line = node(m, scope), *file;

		if (!line)
			return;
		file = node(m, field_uint(line, " file: !"));
		if (!f->file[0] && file)
			field_string(file, "filename: \"", f->file, sizeof(f->file));
		if (strstr(line, "!DISubprogram(") && strstr(line, "!DISubprogram(") < line_end(line)) {
			field_string(line, "(name: \"", f->func, sizeof(f->func));
			return;
		}
		scope = field_uint(line, "(scope: !");
	}
}

/* The chain of DILocation !@p loc, innermost first. */
static size_t
frames(const struct ir *m, unsigned loc, struct ir_frame *fr, size_t max)
{
	size_t n = 0;

	while (loc && n < max) {
		const char *line = node(m, loc);

		if (!line || !strstr(line, "!DILocation(") || strstr(line, "!DILocation(") > line_end(line))
			break;
		memset(&fr[n], 0, sizeof(fr[n]));
		fr[n].line = field_uint(line, "(line: ");
		fr[n].col = field_uint(line, "column: ");
		scope_of(m, field_uint(line, "scope: !"), &fr[n]);
		n++;
		loc = field_uint(line, "inlinedAt: !");
	}
	return n;
}

/* The node lines of @p m->text into m->node. */
static bool
index_nodes(struct ir *m)
{
	unsigned cap = 0;

	for (const char *p = m->text; *p;) {
		const char *end = line_end(p);
		unsigned n = ref_at(p, end);

		if (n != UNSET && strstr(p, " = ") && n < (1u << 24)) {
			if (n >= cap) {
				unsigned grown = n * 2 + 64;
				const char **list = realloc(m->node, grown * sizeof(*list));

				if (!list)
					return false;
				memset(list + cap, 0, (grown - cap) * sizeof(*list));
				m->node = list;
				cap = grown;
			}
			m->node[n] = p;
			m->nodes = n + 1 > m->nodes ? n + 1 : m->nodes;
		}
		p = *end ? end + 1 : end;
	}
	m->slot = m->nodes ? calloc(m->nodes, sizeof(*m->slot)) : NULL;
	return m->slot != NULL;
}

size_t
ir_frames_of(const char *ir, const char *instr, struct ir_frame *fr, size_t max)
{
	struct ir m = { .text = ir };
	const char *dbg = strstr(instr, "!dbg !");
	unsigned found = UNSET, num;
	size_t n = 0;

	if (!dbg || !index_nodes(&m) || !numbering_holds(&m))
		goto out;
	num = (unsigned)strtoul(dbg + 6, NULL, 10);
	for (const char *p = ir; *p; p = *line_end(p) ? line_end(p) + 1 : line_end(p)) {
		unsigned node;

		if (strncmp(p, "define ", 7) != 0)
			continue;
		node = dbg_in_function(&m, p, instr, num);
		if (node != UNSET && found != UNSET && node != found)
			goto out; /* two functions hold it: no guess */
		if (node != UNSET)
			found = node;
	}
	if (found != UNSET)
		n = frames(&m, found, fr, max);
out:
	free(m.node);
	free(m.slot);
	return n;
}
