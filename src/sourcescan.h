/* The token scan of the source expansion: the state of one expansion
 * (struct expander) and of one file's text in it (struct scan), and the
 * comments, literals, identifiers and punctuation copied or rewritten
 * there (sourcescan.c). Directives and includes are source.c's. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_SOURCESCAN_H
#define CLWARP_SOURCESCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clwarp/clwarp.h"
#include "filestamp.h"
#include "kernelmacro.h"
#include "source.h"
#include "util.h"

/* One expansion of a program (source.c, expand_program). */
struct expander {
	const struct source_rewrite *rewrite;
	bool scratch;               /* kernels get the hidden scratch parameter */
	struct strbuf *out;
	char **include_dirs;
	size_t include_dir_count;
	char **once_files;          /* realpaths of files that said #pragma once */
	size_t once_count;
	unsigned include_count;     /* #includes inlined so far, served ones too */
	bool uses_warp;
	bool kernel_without_params;
	unsigned kernel_count;
	uint64_t types_named;
	bool block_sync;            /* user code (not a served header) names a block vote */
	unsigned serving;           /* inside a served header */
	bool cuda;                  /* <clwarp/cuda.h> came: C++ functional casts are rewritten */
	struct kernel_macros macros; /* names #defined to `kernel` */
	struct file_stamps *stamps; /* NULL: none wanted */
};

/* Where the kernel-signature rewrite is, token by token. */
enum kernel_state {
	KS_NONE,
	KS_AFTER_KERNEL,  /* seen `kernel`, waiting for the parameter list */
	KS_IN_PARAMS,     /* inside the parameter list */
};

/* Where expand() is in one file's text, and what it has seen there. */
struct scan {
	const char *p;
	const char *name;             /* the file, for messages and line markers */
	const char *dir;              /* its folder, where its includes start */
	const char *real;             /* its realpath, for #pragma once */
	unsigned depth;               /* includes around it */
	unsigned line;
	bool line_start;
	int paren_depth, brace_depth;
	enum kernel_state ks;
	bool prev_is_name;            /* the previous token was an identifier that may name a function */
	char last;                    /* the previous token's last character; `return` is '=' */
	unsigned open_ternaries;      /* `?` whose `:` has not come, in this statement */
	size_t params_start;
	size_t static_at;             /* `static` at file scope in this declaration: where in out */
	bool kernel_sig;              /* a kernel's parameter list has closed; its body comes next */
	bool in_kernel;               /* inside a kernel's body */
	size_t stmt_at;               /* a statement boundary of the kernel's outermost block, in out */
};

/* A comment, string or character literal at sc->p, copied; false if
 * there is none. */
bool expand_comment_or_literal(struct expander *ex, struct scan *sc);

/* An identifier at sc->p: copied, or rewritten (CUDA's __shared__ and
 * functional casts, a kernel's `static`, kernel macros). */
clwarp_status expand_word(struct expander *ex, struct scan *sc);

/* One other character at sc->p (punctuation, an operator, a digit),
 * copied, and where it leaves the parentheses, braces and statements. */
void expand_punct(struct expander *ex, struct scan *sc);

#endif
