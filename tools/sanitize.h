/* clwarp-run --sanitize: the same command again under Oclgrind, on the
 * local backend, and Oclgrind's reports (data races, barrier divergence,
 * invalid and uninitialized accesses) turned into one line each with the
 * user's FILE:LINE:COLUMN; a report inside the library's code gets the
 * user's line of the call that led there (sanitize-ir.h). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_SANITIZE_H
#define CLWARP_RUN_SANITIZE_H

#include "options.h"

#include <stdbool.h>

/* The environment variable that marks the run under Oclgrind. */
#define SANITIZE_CHILD_ENV "CLWARP_RUN_UNDER_OCLGRIND"

/* Whether this process is the run under Oclgrind (its buffers then get no
 * guard zones: Oclgrind checks their real bounds). */
bool sanitize_is_child(void);

/* Runs @p argv again under oclgrind with the options @p o asks for, holds
 * its stdout back, and reports what Oclgrind found. Returns the exit
 * status: EXIT_OVERFLOW when Oclgrind reported anything (the run's output
 * is dropped), else the run's own status (its output passed on). */
int sanitize_run(char **argv, const struct options *o);

#endif
