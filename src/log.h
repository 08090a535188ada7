/* Internal logging: every message goes through the engine's handler. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_LOG_H
#define CLWARP_LOG_H

#include "clwarp/clwarp.h"

/* Where messages go and which ones are kept. A NULL logger drops everything. */
struct clwarp_logger {
	clwarp_log_fn fn;        /* NULL: stderr */
	void *user_data;
	clwarp_log_level level;
};

#if defined(__GNUC__)
#define CLWARP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLWARP_PRINTF(a, b)
#endif

void clwarp_log(const struct clwarp_logger *logger, clwarp_log_level level, const char *fmt, ...)
	CLWARP_PRINTF(3, 4);

#define log_error(l, ...) clwarp_log((l), CLWARP_LOG_ERROR, __VA_ARGS__)
#define log_warning(l, ...) clwarp_log((l), CLWARP_LOG_WARNING, __VA_ARGS__)
#define log_info(l, ...) clwarp_log((l), CLWARP_LOG_INFO, __VA_ARGS__)
#define log_debug(l, ...) clwarp_log((l), CLWARP_LOG_DEBUG, __VA_ARGS__)

/* Parse "error|warning|info|debug" or "0".."3"; returns -1 if unknown. */
int clwarp_log_level_parse(const char *text);

#endif
