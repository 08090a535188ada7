/* Source preparation: expands quoted #includes, rewrites kernel signatures and helpers.
 * The tokens between directives are sourcescan.c's. */
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
#include "kernelmacro.h"
#include "sourcescan.h"
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
