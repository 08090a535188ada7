/* clwarp-run's build step (build-step.h). */
/* SPDX-License-Identifier: MIT */
#include "build-step.h"

#include "output.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The text of a temporary file from its start; NULL when empty. */
static char *
read_back(FILE *f)
{
	long size;
	char *text;

	if (fflush(f) != 0 || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) != 0)
		return NULL;
	text = malloc((size_t)size + 1);
	if (!text)
		return NULL;
	size = (long)fread(text, 1, (size_t)size, f);
	text[size] = '\0';
	return text;
}

clwarp_status
build_step(clwarp_engine *engine, const char *path, const char *options,
	   clwarp_program **program, clwarp_build_info *info, char **driver_output)
{
	FILE *tmp = tmpfile();
	int saved = -1;
	clwarp_status status;

	*driver_output = NULL;
	fflush(stderr);
	if (tmp)
		saved = dup(STDERR_FILENO);
	if (saved >= 0 && dup2(fileno(tmp), STDERR_FILENO) < 0) {
		close(saved);
		saved = -1;
	}
	status = clwarp_program_build_file(engine, path, options, program, info);
	if (saved >= 0) {
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
		close(saved);
		*driver_output = read_back(tmp);
	}
	if (tmp)
		fclose(tmp);
	return status;
}

static unsigned
count_lines(const char *text)
{
	unsigned n = 0;

	for (const char *p = text; p && *p; p++)
		n += *p == '\n' || p[1] == '\0';
	return n;
}

void
build_step_report_failure(const char *path, clwarp_status status, const clwarp_build_info *info,
			  const char *driver_output, bool verbose, bool json)
{
	const char *msg = clwarp_last_error();
	const char *log = info->log && *info->log ? info->log : NULL;

	if (msg && *msg)
		report_error("%s", msg);
	else
		report_error("build of %s failed: %s", path, clwarp_status_name(status));
	/* With -v the library's debug log has already shown the compiler's
	 * log, and the driver's output went to the terminal as it came. */
	if (!verbose && (log || driver_output))
		fprintf(stderr, "clwarp-run: -v adds the compiler's log (%u lines)%s\n", count_lines(log),
			driver_output ? " and what the driver printed" : "");
	if (json) {
		fputs("{\"error\": ", stdout);
		output_json_string(stdout, msg && *msg ? msg : clwarp_status_name(status));
		fputs(", \"build_log\": ", stdout);
		output_json_string(stdout, log ? log : "");
		fputs(", \"driver_output\": ", stdout);
		output_json_string(stdout, driver_output ? driver_output : "");
		printf(", \"status\": %d}\n", EXIT_RUNTIME);
		report_output_done();
	}
}
