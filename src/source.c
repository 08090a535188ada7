/* Source preparation: expands quoted #includes, rewrites kernel signatures and helpers. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "source.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cudarewrite.h"
#include "error.h"
#include "kernelexpand.h"
#include "kernelmacro.h"
#include "sourcewords.h"
#include "warpctx.h"
#include "warpflow.h"
#include "kernels_embedded.h"

#define MAX_INCLUDE_DEPTH 64
/* Every #include is inlined again where it appears, so k files that each
 * include the next one k times make k^3 copies: a few kilobytes of text
 * could otherwise take minutes and gigabytes. No real program comes near. */
#define MAX_INCLUDE_COUNT 10000

/* CUDA's warp intrinsics over the warp API (kernels/warp/cuda.h). */
#define SERVED_CUDA_HEADER "clwarp/cuda.h"

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

void
strbuf_put_quoted(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_append(sb, "\\", 1);
		strbuf_append(sb, s, 1);
	}
}

static void
emit_line_marker(struct strbuf *out, unsigned line, const char *name)
{
	strbuf_printf(out, "#line %u \"", line);
	strbuf_put_quoted(out, name);
	strbuf_puts(out, "\"\n");
}

static char *
path_join(const char *dir, const char *file)
{
	struct strbuf sb = { 0 };

	if (file[0] == '/' || !dir || !*dir)
		strbuf_puts(&sb, file);
	else
		strbuf_printf(&sb, "%s/%s", dir, file);
	return strbuf_steal(&sb);
}

static char *
path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct strbuf sb = { 0 };

	if (!slash)
		strbuf_puts(&sb, ".");
	else if (slash == path)
		strbuf_puts(&sb, "/");
	else
		strbuf_append(&sb, path, (size_t)(slash - path));
	return strbuf_steal(&sb);
}

/* Collect the folders of every "-I dir" / "-Idir" in a build option string. */
static clwarp_status
parse_include_dirs(const char *options, struct expander *ex)
{
	const char *p = options;

	while (p && *p) {
		const char *start, *end;

		while (isspace((unsigned char)*p))
			p++;
		if (p[0] != '-' || p[1] != 'I') {
			while (*p && !isspace((unsigned char)*p))
				p++;
			continue;
		}
		p += 2;
		while (isspace((unsigned char)*p))
			p++;
		start = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		end = p;
		if (end == start)
			continue;
		char **dirs = realloc(ex->include_dirs, (ex->include_dir_count + 1) * sizeof(char *));
		if (!dirs)
			return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		ex->include_dirs = dirs;
		dirs[ex->include_dir_count] = strndup(start, (size_t)(end - start));
		if (!dirs[ex->include_dir_count])
			return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		ex->include_dir_count++;
	}
	return CLWARP_OK;
}

static bool
once_seen(const struct expander *ex, const char *real)
{
	for (size_t i = 0; i < ex->once_count; i++) {
		if (streq(ex->once_files[i], real))
			return true;
	}
	return false;
}

static void
once_add(struct expander *ex, const char *real)
{
	char **files;

	if (!real || once_seen(ex, real))
		return;
	files = realloc(ex->once_files, (ex->once_count + 1) * sizeof(char *));
	if (!files)
		return;
	ex->once_files = files;
	files[ex->once_count] = strdup(real);
	if (files[ex->once_count])
		ex->once_count++;
}

static clwarp_status expand(struct expander *ex, const char *text, const char *name,
			    const char *dir, const char *real, unsigned depth);

/* What @p path is when it is there but not a regular file (reading a FIFO
 * or a device such as /dev/zero would block or never end); else NULL. */
static const char *
include_special_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return NULL;
	return S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO"
		: S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
		: S_ISSOCK(st.st_mode) ? "a socket" : "a special file";
}

/* Inline one `#include "file"` found at name:line. */
static clwarp_status
expand_include(struct expander *ex, const char *file, const char *name, unsigned line,
	       const char *dir, unsigned depth)
{
	struct strbuf tried = { 0 };
	char *path = NULL, *content = NULL, *real = NULL, *subdir = NULL;
	const char *kind;
	size_t size;
	clwarp_status status = CLWARP_OK;
	int err = ENOENT;

	if (depth >= MAX_INCLUDE_DEPTH)
		return set_error(CLWARP_ERROR_BUILD,
				 "%s:%u: #include nested more than %d deep (an include cycle?)", name,
				 line, MAX_INCLUDE_DEPTH);
	if (++ex->include_count > MAX_INCLUDE_COUNT)
		return set_error(CLWARP_ERROR_BUILD,
				 "%s:%u: more than %d #includes in one program (a header included "
				 "over and over?)", name, line, MAX_INCLUDE_COUNT);

	for (size_t i = 0; i <= ex->include_dir_count; i++) {
		const char *base = i == 0 ? dir : ex->include_dirs[i - 1];

		if (file[0] == '/' && i > 0)
			break;
		free(path);
		path = path_join(base, file);
		if (!path) {
			status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
			goto out;
		}
		if (ex->stamps)
			file_stamps_add(ex->stamps, path);
		if ((kind = include_special_kind(path))) {
			status = set_error(CLWARP_ERROR_IO, "%s:%u: cannot read #include \"%s\": %s is not a regular file (%s)",
					   name, line, file, path, kind);
			goto out;
		}
		if (read_file(path, &content, &size) == 0)
			break;
		err = errno;
		strbuf_printf(&tried, "%s%s", tried.len ? ", " : "", path);
		content = NULL;
		if (err != ENOENT && err != ENOTDIR)
			break;
	}
	if (!content) {
		status = set_error(CLWARP_ERROR_IO, "%s:%u: cannot read #include \"%s\": %s (tried %s)",
				   name, line, file, strerror(err), tried.data ? tried.data : file);
		goto out;
	}
	if (strlen(content) != size) {
		status = set_error(CLWARP_ERROR_BUILD, "%s: file contains a NUL byte", path);
		goto out;
	}
	real = realpath(path, NULL);
	if (real && once_seen(ex, real))
		goto out;
	subdir = path_dirname(path);
	if (!subdir) {
		status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		goto out;
	}
	emit_line_marker(ex->out, 1, path);
	status = expand(ex, content, path, subdir, real, depth + 1);
	if (status == CLWARP_OK) {
		if (ex->out->len && ex->out->data[ex->out->len - 1] != '\n')
			strbuf_puts(ex->out, "\n");
		emit_line_marker(ex->out, line + 1, name);
	}
out:
	strbuf_free(&tried);
	free(path);
	free(content);
	free(real);
	free(subdir);
	return status;
}

/* Inline a header the library serves itself (no file on disk), found by
 * `#include <NAME>` at name:line. Its own #include guard makes it once-only. */
static clwarp_status
expand_served(struct expander *ex, const char *served_name, const char *text, const char *name,
	      unsigned line, unsigned depth)
{
	clwarp_status status;

	if (++ex->include_count > MAX_INCLUDE_COUNT)
		return set_error(CLWARP_ERROR_BUILD,
				 "%s:%u: more than %d #includes in one program (a header included "
				 "over and over?)", name, line, MAX_INCLUDE_COUNT);
	emit_line_marker(ex->out, 1, served_name);
	ex->serving++;
	status = expand(ex, text, served_name, NULL, NULL, depth + 1);
	ex->serving--;
	ex->cuda = true;
	if (status != CLWARP_OK)
		return status;
	if (ex->out->len && ex->out->data[ex->out->len - 1] != '\n')
		strbuf_puts(ex->out, "\n");
	emit_line_marker(ex->out, line + 1, name);
	return CLWARP_OK;
}

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

/* Past the newline at sc->p, if there is one. */
static void
skip_newline(struct scan *sc)
{
	if (*sc->p == '\n') {
		sc->p++;
		sc->line++;
	}
}

/* The rest of an #include directive from f (its line read to sc->p):
 * `"file"` is inlined and so is <clwarp/cuda.h>, each setting *done;
 * other includes are the compiler's. */
static clwarp_status
expand_include_directive(struct expander *ex, struct scan *sc, const char *f, unsigned directive_line,
			 bool *done)
{
	clwarp_status status;

	*done = false;
	while (*f == ' ' || *f == '\t')
		f++;
	if (*f == '"') {
		const char *close = memchr(f + 1, '"', (size_t)(sc->p - f - 1));
		char *file;

		if (!close)
			return set_error(CLWARP_ERROR_BUILD, "%s:%u: malformed #include", sc->name,
					 directive_line);
		file = strndup(f + 1, (size_t)(close - f - 1));
		if (!file)
			return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		status = expand_include(ex, file, sc->name, directive_line, sc->dir, sc->depth);
		free(file);
	} else if (*f == '<' && strncmp(f + 1, SERVED_CUDA_HEADER ">", sizeof(SERVED_CUDA_HEADER)) == 0) {
		status = expand_served(ex, SERVED_CUDA_HEADER, clwarp_kernel_warp_cuda, sc->name,
				       directive_line, sc->depth);
	} else {
		return CLWARP_OK;
	}
	if (status != CLWARP_OK)
		return status;
	/* The marker after the include already moved to the next line. */
	skip_newline(sc);
	*done = true;
	return CLWARP_OK;
}

/* A preprocessor directive at sc->p, continuation lines included. */
static clwarp_status
expand_directive(struct expander *ex, struct scan *sc)
{
	const char *start = sc->p, *q = sc->p + 1;
	unsigned directive_line = sc->line;
	bool named = false, done;
	clwarp_status status;

	while (*sc->p && *sc->p != '\n') {
		if (sc->p[0] == '\\' && sc->p[1] == '\n') {
			sc->p++;
			sc->line++;
		}
		sc->p++;
	}
	ex->types_named |= source_words_in(start, sc->p, &named);
	ex->block_sync |= named && !ex->serving;
	status = kernel_macros_directive(&ex->macros, q, sc->p, sc->name, directive_line);
	if (status != CLWARP_OK)
		return status;
	while (*q == ' ' || *q == '\t')
		q++;
	if (strncmp(q, "include", 7) == 0) {
		status = expand_include_directive(ex, sc, q + 7, directive_line, &done);
		if (status != CLWARP_OK || done)
			return status;
	} else if (strncmp(q, "pragma", 6) == 0) {
		const char *w = q + 6;

		while (*w == ' ' || *w == '\t')
			w++;
		if (strncmp(w, "once", 4) == 0 && !is_ident_char(w[4])) {
			once_add(ex, sc->real);
			return CLWARP_OK;  /* drop it: the compiler sees one merged file */
		}
	}
	strbuf_append(ex->out, start, (size_t)(sc->p - start));
	return CLWARP_OK;
}

/* A comment, string or character literal at sc->p, copied; false if
 * there is none. */
static bool
expand_comment_or_literal(struct expander *ex, struct scan *sc)
{
	const char *p = sc->p, *start = p;
	char c = *p;

	if (c == '/' && p[1] == '/') {
		while (*p && *p != '\n')
			p++;
	} else if (c == '/' && p[1] == '*') {
		const char *end = strstr(p + 2, "*/");

		p = end ? end + 2 : p + strlen(p);
		for (const char *q = start; q < p; q++)
			sc->line += *q == '\n';
	} else if (c == '"' || c == '\'') {
		p++;
		while (*p && *p != c && *p != '\n') {
			if (*p == '\\' && p[1])
				p++;
			p++;
		}
		if (*p == c)
			p++;
		sc->prev_is_name = false;
		sc->last = c;
	} else {
		return false;
	}
	strbuf_append(ex->out, start, (size_t)(p - start));
	sc->p = p;
	return true;
}

/* A kernel begins (`kernel`, or a kernel macro). A kernel cannot be
 * static: the `static` before it goes. */
static void
kernel_begins(struct expander *ex, struct scan *sc)
{
	ex->kernel_count++;
	sc->ks = KS_AFTER_KERNEL;
	if (sc->static_at != SIZE_MAX)
		memset(ex->out->data + sc->static_at, ' ', 6);
}

/* What one identifier says of the program: warp calls, the extension
 * types it names, block votes. */
static void
note_word(struct expander *ex, const char *start, size_t len)
{
	if (len > 5 && strncmp(start, "warp_", 5) == 0)
		ex->uses_warp = true;
	/* <clwarp/cuda.h>'s calls are warp_* ones behind macros. */
	if (ex->cuda && !ex->serving && source_is_cuda_warp_call(start, len))
		ex->uses_warp = true;
	ex->types_named |= source_type_bits(start, len);
	ex->block_sync |= !ex->serving && source_is_block_sync(start, len);
}

/* An identifier at sc->p: copied, or rewritten (CUDA's __shared__ and
 * functional casts, a kernel's `static`, kernel macros). */
static clwarp_status
expand_word(struct expander *ex, struct scan *sc)
{
	struct strbuf *out = ex->out;
	const char *start = sc->p, *q;
	size_t len;
	bool cast;
	enum kernel_use use = KERNEL_USE_NONE;
	clwarp_status status;

	while (is_ident_char(*sc->p))
		sc->p++;
	len = (size_t)(sc->p - start);
	if (ex->cuda && !ex->serving && sc->brace_depth > 0 &&
	    cuda_shared_word(out, start, &sc->p, sc->in_kernel ? sc->brace_depth : 0, sc->stmt_at, &sc->line)) {
		ex->types_named |= source_words_in(start, sc->p, &ex->block_sync);
		sc->last = ';';
		return CLWARP_OK;
	}
	/* A kernel cannot be static: the one before or after `kernel` goes. */
	if (len == 6 && strncmp(start, "static", 6) == 0 && sc->paren_depth == 0 && sc->brace_depth == 0) {
		sc->static_at = out->len;
		if (sc->ks == KS_AFTER_KERNEL) {
			strbuf_puts(out, "      ");
			return CLWARP_OK;
		}
	}
	for (q = sc->p; *q == ' ' || *q == '\t'; q++)
		;
	if (sc->paren_depth == 0 && sc->brace_depth == 0 && sc->ks == KS_NONE) {
		status = kernel_macros_use(&ex->macros, start, len, sc->name, sc->line, &use);
		/* A function-like kernel macro: expanded as far as its `kernel`. */
		if (status == CLWARP_OK && use == KERNEL_USE_CALL)
			status = kernel_expand(&ex->macros, start, ex->rewrite->reqd_sub_group_size,
					       sc->name, &sc->line, out, &sc->p);
		if (status != CLWARP_OK)
			return status;
		if (use == KERNEL_USE_CALL) {
			kernel_begins(ex, sc);
			sc->prev_is_name = true;
			return CLWARP_OK;
		}
	}
	/* CUDA's C++ functional cast T(x) is C's (T)(x) where C has no T
	 * before '(': after an operator, `=`, `return`, `?`, a
	 * conditional's `:` or `[` (not after `(` or `,`, where it
	 * may be a declarator). No C program changes meaning. */
	cast = ex->cuda && *q == '(' && strchr("=?+-*/%&|^<>!~[", sc->last) &&
	       source_is_cast_type(start, len);
	strbuf_puts(out, cast ? "(" : "");
	strbuf_append(out, start, len);
	strbuf_puts(out, cast ? ")" : "");
	sc->last = len == 6 && strncmp(start, "return", 6) == 0 ? '=' : 'a';
	note_word(ex, start, len);
	/* `kernel`, `__kernel`, object-like macros for them (kernelmacro.h),
	 * and __global__: CUDA's kernel qualifier, `kernel` in <clwarp/cuda.h>. */
	if (use == KERNEL_USE_WORD) {
		kernel_begins(ex, sc);
		if (ex->rewrite->reqd_sub_group_size)
			strbuf_printf(out, " __attribute__((intel_reqd_sub_group_size(%u)))",
				      ex->rewrite->reqd_sub_group_size);
		sc->prev_is_name = false;
		return CLWARP_OK;
	}
	sc->prev_is_name = !(len == 13 && strncmp(start, "__attribute__", 13) == 0) &&
			   !(len == 11 && strncmp(start, "__attribute", 11) == 0) &&
			   !(len == 17 && strncmp(start, "__launch_bounds__", 17) == 0);
	return CLWARP_OK;
}

/* A kernel's parameter list has closed: note one without parameters,
 * and append the hidden scratch parameter where it is wanted. */
static void
kernel_params_end(struct expander *ex, struct scan *sc)
{
	struct strbuf *out = ex->out;

	if (!ex->scratch && source_params_are_empty(out->data + sc->params_start))
		ex->kernel_without_params = true;
	if (ex->scratch) {
		if (source_params_are_empty(out->data + sc->params_start)) {
			strbuf_truncate(out, sc->params_start);
			strbuf_puts(out, SOURCE_SCRATCH_PARAM);
		} else {
			strbuf_puts(out, ", " SOURCE_SCRATCH_PARAM);
		}
	}
	sc->ks = KS_NONE;
	sc->kernel_sig = true;
}

/* One other character at sc->p (punctuation, an operator, a digit),
 * copied, and where it leaves the parentheses, braces and statements. */
static void
expand_punct(struct expander *ex, struct scan *sc)
{
	struct strbuf *out = ex->out;
	char c = *sc->p;

	if (c == '(') {
		strbuf_append(out, sc->p++, 1);
		if (sc->ks == KS_AFTER_KERNEL && sc->paren_depth == 0 && sc->prev_is_name) {
			sc->ks = KS_IN_PARAMS;
			sc->params_start = out->len;
		}
		sc->paren_depth++;
	} else {
		if (c == ')' && --sc->paren_depth == 0 && sc->ks == KS_IN_PARAMS)
			kernel_params_end(ex, sc);
		if (c == '{' && sc->brace_depth++ == 0) {
			sc->in_kernel = sc->kernel_sig;
			sc->kernel_sig = false;
			sc->static_at = SIZE_MAX;
		}
		if (c == '}') {
			sc->brace_depth--;
			sc->in_kernel = sc->in_kernel && sc->brace_depth > 0;
		}
		/* A kernel prototype without a body ends here. */
		if (c == ';' && sc->paren_depth == 0 && sc->ks == KS_AFTER_KERNEL)
			sc->ks = KS_NONE;
		strbuf_append(out, sc->p++, 1);
	}
	/* A conditional's `:` counts as its `?`; a label's or a
	 * bit-field's does not. */
	if (c == '?')
		sc->open_ternaries++;
	if (c == ';' || c == '{' || c == '}')
		sc->open_ternaries = 0;
	sc->last = c;
	if (c == ':' && sc->open_ternaries > 0) {
		sc->open_ternaries--;
		sc->last = '?';
	}
	sc->prev_is_name = false;
	sc->static_at = (c == ';' || c == '}') && sc->brace_depth == 0 ? SIZE_MAX : sc->static_at;
	sc->kernel_sig = sc->kernel_sig && !((c == ';' || c == '}') && sc->brace_depth == 0);
	if ((c == ';' || c == '{' || c == '}') && sc->brace_depth == 1 && sc->paren_depth == 0)
		sc->stmt_at = out->len;
}

static clwarp_status
expand(struct expander *ex, const char *text, const char *name, const char *dir,
       const char *real, unsigned depth)
{
	struct scan sc = {
		.p = text, .name = name, .dir = dir, .real = real, .depth = depth,
		.line = 1, .line_start = true, .ks = KS_NONE, .last = ';', .static_at = SIZE_MAX,
	};
	clwarp_status status = CLWARP_OK;

	/* A UTF-8 byte-order mark: the compiler skips one at the start of a
	 * file, but here every file follows the prelude or other text. */
	if (strncmp(sc.p, "\xEF\xBB\xBF", 3) == 0)
		sc.p += 3;
	while (*sc.p && status == CLWARP_OK) {
		char c = *sc.p;

		if (c == '\n') {
			strbuf_append(ex->out, sc.p++, 1);
			sc.line++;
			sc.line_start = true;
		} else if (isspace((unsigned char)c)) {
			strbuf_append(ex->out, sc.p++, 1);
		} else if (sc.line_start && c == '#') {
			status = expand_directive(ex, &sc);
		} else {
			sc.line_start = false;
			if (expand_comment_or_literal(ex, &sc))
				continue;
			if (is_ident_start(c))
				status = expand_word(ex, &sc);
			else
				expand_punct(ex, &sc);
		}
	}
	if (status != CLWARP_OK)
		return status;
	return ex->out->failed ? set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory") : CLWARP_OK;
}

/* One expansion of the program; `scratch`: kernels get the hidden scratch parameter. */
static clwarp_status
expand_program(const char *text, const char *name, const char *dir, const char *options,
	       const struct source_rewrite *rewrite, bool scratch, struct file_stamps *stamps,
	       struct source_result *result)
{
	struct expander ex = { 0 };
	enum warpctx_mode mode = !scratch ? WARPCTX_CHECK :
				 rewrite->add_scratch_arg ? WARPCTX_LOCAL : WARPCTX_SCRATCH;
	clwarp_status status;

	memset(result, 0, sizeof(*result));
	ex.rewrite = rewrite;
	ex.scratch = scratch;
	ex.stamps = stamps;
	if (options)
		ex.types_named |= source_words_in(options, options + strlen(options), &ex.block_sync);
	ex.out = &result->text;
	status = kernel_macros_init(&ex.macros, options);
	if (status == CLWARP_OK)
		status = parse_include_dirs(options, &ex);
	if (status == CLWARP_OK)
		status = expand(&ex, text, name, dir, NULL, 0);
	if (status == CLWARP_OK && ex.cuda)
		status = cuda_rewrite_text(&result->text);
	/* After the includes, so the call graph spans every file; on every
	 * backend, so a program that cannot be rewritten fails everywhere. */
	if (status == CLWARP_OK)
		status = warpctx_rewrite(&result->text, name, mode);
	if (status == CLWARP_OK && scratch && rewrite->barrier_warps)
		status = warpflow_rewrite(&result->text, name);
	result->uses_warp = ex.uses_warp;
	result->kernel_without_params = ex.kernel_without_params;
	result->kernel_count = ex.kernel_count;
	result->types_named = ex.types_named;
	result->names_block_sync = ex.block_sync;
	result->scratch_arg = scratch;
	for (size_t i = 0; i < ex.include_dir_count; i++)
		free(ex.include_dirs[i]);
	free(ex.include_dirs);
	for (size_t i = 0; i < ex.once_count; i++)
		free(ex.once_files[i]);
	free(ex.once_files);
	kernel_macros_free(&ex.macros);
	if (status != CLWARP_OK)
		source_result_free(result);
	return status;
}

clwarp_status
source_expand(const char *text, const char *name, const char *dir, const char *options,
	      const struct source_rewrite *rewrite, struct file_stamps *stamps,
	      struct source_result *result)
{
	clwarp_status status;

	status = expand_program(text, name, dir, options, rewrite,
				rewrite->add_scratch_arg || rewrite->barrier_warps, stamps, result);
	/* Whether a program names a block vote is known once every include is
	 * in; such a program is expanded again, with the scratch. The first
	 * pass stamped every file read. */
	if (status == CLWARP_OK && rewrite->scratch_for_block_sync && !result->scratch_arg &&
	    result->names_block_sync) {
		source_result_free(result);
		status = expand_program(text, name, dir, options, rewrite, true, NULL, result);
	}
	return status;
}

void
source_result_free(struct source_result *result)
{
	strbuf_free(&result->text);
}
