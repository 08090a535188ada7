/* clwarp-run: its options, from the command line and from a kernel file's
 * //! run lines: parsing, merging, and what they make of the engine's
 * options and the build options. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_OPTIONS_H
#define CLWARP_RUN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include <clwarp/clwarp.h>

struct strvec {
	char **items;
	size_t count;
};

struct options {
	const char *kernel;
	const char *device;
	bool global_set, local_set;
	unsigned global_dims, local_dims;
	size_t global[3], local[3];
	struct strvec args;        /* -a SPECs */
	bool backend_set;
	clwarp_backend backend;
	unsigned warp_size;        /* 0: not given */
	struct strvec build;       /* -D, -I, --build-options fragments, in order */
	unsigned repeat;           /* 0: not given */
	bool list_devices, no_cache, json, check, quiet, verbose, help, version;
	bool sanitize;             /* --sanitize: run under Oclgrind (sanitize.h) */
	const char *file;
};

/* What --help prints. */
extern const char options_help_text[];

/*
 * Parse one argument vector into @p o. @p where is NULL for the command
 * line, else "FILE:LINE" of a //! run line, whose relative -I folders are
 * taken from @p base_dir. Returns 0 or EXIT_USAGE (message printed).
 */
int options_parse(int argc, char **argv, struct options *o, const char *where,
		  const char *base_dir);

/* Command-line options @p cli win over the file's @p f; the result goes to
 * @p f. Returns 0 or EXIT_USAGE (message printed). */
int options_merge(struct options *f, struct options *cli);

/* Free the SPECs and build fragments @p o holds. */
void options_clear(struct options *o);

/* The engine's options for @p o on @p device (NULL: the default device). */
void options_engine(const struct options *o, clwarp_engine_options *eo, const char *device);

/* @p first, then the build fragments, space-separated (malloc'd; NULL
 * when out of memory). */
char *options_build_string(const struct options *o, const char *first);

#endif
