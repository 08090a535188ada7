/* Internal logging through the engine's handler; stderr by default. */
/* SPDX-License-Identifier: MIT */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const level_names[] = { "error", "warning", "info", "debug" };

void
clwarp_log(const struct clwarp_logger *logger, clwarp_log_level level, const char *fmt, ...)
{
	char message[4096];
	va_list ap;

	if (!logger || level > logger->level)
		return;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);

	if (logger->fn)
		logger->fn(level, message, logger->user_data);
	else
		fprintf(stderr, "clwarp: %s: %s\n", level_names[level], message);
}

int
clwarp_log_level_parse(const char *text)
{
	if (!text)
		return -1;
	for (int i = 0; i < 4; i++) {
		if (strcmp(text, level_names[i]) == 0)
			return i;
	}
	if (text[0] >= '0' && text[0] <= '3' && text[1] == '\0')
		return text[0] - '0';
	return -1;
}
