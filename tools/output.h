/* clwarp-run: the text and JSON reports of a run. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_OUTPUT_H
#define CLWARP_RUN_OUTPUT_H

#include "check.h"
#include "elemtype.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct output_buffer {
	unsigned arg;          /* kernel argument index */
	enum elemtype type;
	size_t count;
	const void *data;
};

/* After "warp size N" where N is the device's own sub-group width (khr
 * without a width pin) rather than a width libclwarp chose. */
#define NATIVE_WIDTH_NOTE " (the device's own width)"

struct run_report {
	const char *device;
	const char *platform;
	const char *backend;
	unsigned warp_size;
	bool native_width;          /* khr at the device's own sub-group width, no pin */
	const char *kernel;
	unsigned dims;
	size_t global[3];
	size_t local[3];
	bool has_local;
	const char *build_source;   /* "compiled", "disk", "memory" */
	double build_ms;
	const struct output_buffer *buffers;
	size_t buffer_count;
	unsigned runs;              /* 0: no timing (no --repeat) */
	double time_min_ns, time_median_ns, time_max_ns;
	bool has_check;
	const struct check_report *check;
};

void output_text(FILE *f, const struct run_report *r, bool quiet);
void output_json(FILE *f, const struct run_report *r);

/* Write @p s as a JSON string, quotes included. */
void output_json_string(FILE *f, const char *s);

#endif
