/* clwarp-run's error reports: one message per error, the same error as
 * JSON with --json, and the library's log without repeats. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_REPORT_H
#define CLWARP_RUN_REPORT_H

#include <stdarg.h>
#include <stdbool.h>

#include <clwarp/clwarp.h>

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
#define EXIT_OVERFLOW 3   /* the kernel wrote past the end of a buffer (guard.h) */

/* Whether the command line asks for --json (or an abbreviation getopt
 * takes), before "--": errors in parsing the options are JSON too. */
bool report_argv_wants_json(int argc, char **argv);
void report_set_json(bool on);

/* "clwarp-run: MESSAGE" on stderr; the first one is also the JSON error. */
void report_verror(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void report_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, then the two usage lines ("Usage: ...", "Try ..."). */
void report_vusage(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* report_vusage's message; returns EXIT_USAGE. */
int report_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* stdout has had its document (the run's output, or a build failure's
 * JSON): report_finish() adds nothing. */
void report_output_done(void);

/* With --json, a failed run whose stdout is still empty gets one JSON
 * object there: {"error": MESSAGE, "status": STATUS}. */
void report_finish(int status);

/* A clwarp_log_fn: "clwarp: LEVEL: MESSAGE" on stderr, as the library's
 * default, but a message said once is not said again (one engine per
 * device in --list-devices would repeat each warning). */
void report_log(clwarp_log_level level, const char *message, void *user_data);

/* The library's message for a failed call: clwarp_last_error(), or the
 * status text when it has none. */
const char *report_library_message(clwarp_status status);

/* A bad CLWARP_* environment value: the library's INVALID_ARGUMENT
 * with a message that names the variable. */
bool report_is_environment_error(clwarp_status status);

/* A failed library call reported: "WHAT: MESSAGE" (report_library_message),
 * returning EXIT_RUNTIME; a bad CLWARP_* variable is a usage error instead,
 * and its message says it all (EXIT_USAGE). */
int report_library_error(const char *what, clwarp_status status);

#endif
