/* clwarp-run: the //! run and //! expect directives of a kernel file. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_KERNEL_FILE_H
#define CLWARP_RUN_KERNEL_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* One "//! run: OPTIONS" line, split like a shell would. */
struct kf_run {
	int line;
	int argc;        /* argv[0] is "clwarp-run" */
	char **argv;     /* NULL-terminated */
};

/* One "//! expect[K]: v0 v1 ..." or "//! expect[K]@W: v0 v1 ..." line. */
struct kf_expect {
	int line;
	unsigned k;
	unsigned width;  /* the W of @W; 0: the line holds at every width */
	size_t count;
	char **values;
};

struct kernel_file {
	char *path;
	char *dir;       /* the folder of path, "." when it has none */
	struct kf_run *runs;
	size_t run_count;
	struct kf_expect *expects;
	size_t expect_count;
};

/*
 * Read @p path and collect its directives. Returns 0, or 2 with a message
 * in @p err (an unreadable file, a malformed directive).
 */
int kernel_file_load(const char *path, struct kernel_file *kf, char *err, size_t errlen);
/* The same for the contents @p text of @p path, already read; the lines of
 * @p text are cut in place. kernel_file_load() reads and calls this; the
 * fuzz target (tests/fuzz) calls it directly. */
int kernel_file_parse(const char *path, char *text, struct kernel_file *kf, char *err,
		      size_t errlen);
void kernel_file_clear(struct kernel_file *kf);

/*
 * The expect line for out: buffer @p k at warp width @p width: the @W line
 * with W == width, else the line without @W, else NULL. A @p width of 0
 * finds only the line without @W.
 */
const struct kf_expect *kernel_file_expect(const struct kernel_file *kf, unsigned k,
					   unsigned width);
/* Whether out: buffer @p k has any expect line, at any width. */
bool kernel_file_expects(const struct kernel_file *kf, unsigned k);
/* The widths W of the @W lines for out: buffer @p k, ascending, as
 * "8, 16" into @p buf (empty when there are none). */
void kernel_file_expect_widths(const struct kernel_file *kf, unsigned k, char *buf,
			       size_t buflen);

/*
 * Split @p text into words like a POSIX shell does for simple quoting:
 * blanks separate words, '...' is literal, "..." allows \" \\ \$ \`, and a
 * backslash outside quotes escapes the next character. The words are
 * appended to *argv (NULL-terminated, each malloc'd). Returns false with a
 * message on an unterminated quote.
 */
bool kernel_file_split(const char *text, int *argc, char ***argv, char *err, size_t errlen);

#endif
