/* Fuzz target: the build-log remapper of compiler positions to #line origins. */
/* SPDX-License-Identifier: MIT */
#include "fuzz.h"

#include "buildlog.h"

/* The input is LOG \0 TEXT: a compiler's log and the program text it was
 * given (with #line markers); without a NUL all of it is the log. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part[2];
	size_t len[2];
	size_t n = fuzz_split(data, size, 0, part, len, 2);
	char *log = fuzz_strndup(part[0], len[0]);
	char *text = n > 1 ? fuzz_strndup(part[1], len[1]) : fuzz_strndup(data, 0);
	char *out = buildlog_remap(log, text);

	FUZZ_CHECK(out);
	/* Only "<kernel>:", "<source>:" or "<stdin>:" and a number change. */
	if (!strchr(log, ':'))
		FUZZ_CHECK(strcmp(out, log) == 0);
	free(out);
	free(log);
	free(text);
	return 0;
}
