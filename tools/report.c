/* clwarp-run's error reports (report.h). */
/* SPDX-License-Identifier: MIT */
#include "report.h"

#include "output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool json;
static bool output_done;
static char first_error[4096];
static bool have_error;

bool
report_argv_wants_json(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (strcmp(argv[i], "--") == 0)
			break;
		if (len >= 3 && len <= 6 && strncmp(argv[i], "--json", len) == 0)
			return true;
	}
	return false;
}

void
report_set_json(bool on)
{
	json = on;
}

static void
remember(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static void
remember(const char *fmt, va_list ap)
{
	va_list copy;

	if (have_error)
		return;
	va_copy(copy, ap);
	vsnprintf(first_error, sizeof(first_error), fmt, copy);
	va_end(copy);
	have_error = true;
}

void
report_verror(const char *fmt, va_list ap)
{
	remember(fmt, ap);
	fputs("clwarp-run: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
report_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_verror(fmt, ap);
	va_end(ap);
}

void
report_vusage(const char *fmt, va_list ap)
{
	report_verror(fmt, ap);
	fputs("Usage: clwarp-run [options] FILE.cl\nTry 'clwarp-run --help'.\n", stderr);
}

int
report_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_vusage(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

void
report_output_done(void)
{
	output_done = true;
}

void
report_finish(int status)
{
	if (!json || status == 0 || output_done)
		return;
	fputs("{\"error\": ", stdout);
	output_json_string(stdout, have_error ? first_error : "failed");
	printf(", \"status\": %d}\n", status);
	fflush(stdout);
	output_done = true;
}

/* Messages already said, by hash; a repeat beyond the table is said again. */
#define SEEN_MAX 64
static unsigned long long seen[SEEN_MAX];
static size_t seen_count;

static unsigned long long
hash(clwarp_log_level level, const char *s)
{
	unsigned long long h = 1469598103934665603ull ^ (unsigned)level;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

void
report_log(clwarp_log_level level, const char *message, void *user_data)
{
	static const char *const names[] = { "error", "warning", "info", "debug" };
	unsigned long long h = hash(level, message);

	(void)user_data;
	/* Errors and warnings only: -v's info and debug lines follow events. */
	if (level <= CLWARP_LOG_WARNING) {
		for (size_t i = 0; i < seen_count; i++) {
			if (seen[i] == h)
				return;
		}
		if (seen_count < SEEN_MAX)
			seen[seen_count++] = h;
	}
	fprintf(stderr, "clwarp: %s: %s\n", (unsigned)level < 4 ? names[level] : "log", message);
}

const char *
report_library_message(clwarp_status status)
{
	const char *msg = clwarp_last_error();

	return msg && *msg ? msg : clwarp_status_name(status);
}

bool
report_is_environment_error(clwarp_status status)
{
	return status == CLWARP_ERROR_INVALID_ARGUMENT && strncmp(clwarp_last_error(), "CLWARP_", 7) == 0;
}

int
report_library_error(const char *what, clwarp_status status)
{
	if (report_is_environment_error(status))
		return report_usage("%s", clwarp_last_error());
	report_error("%s: %s", what, report_library_message(status));
	return EXIT_RUNTIME;
}
