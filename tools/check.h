/* clwarp-run: comparing out: buffers with the file's expect lines. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_CHECK_H
#define CLWARP_RUN_CHECK_H

#include "elemtype.h"

#include <stdbool.h>
#include <stddef.h>

/* Floats pass when |got - expected| <= CHECK_ABS_TOL + CHECK_REL_TOL * |expected|. */
#define CHECK_ABS_TOL 1e-6
#define CHECK_REL_TOL 1e-5

/* At most this many mismatch lines are kept. */
#define CHECK_MAX_LINES 10

struct check_report {
	size_t mismatches;   /* all of them, also those past CHECK_MAX_LINES */
	size_t line_count;
	char *lines[CHECK_MAX_LINES];  /* "arg3[5]: got 7, expected 8" */
};

/* Whether every expected value parses as type @p t; false with a message. */
bool check_validate(enum elemtype t, char *const *values, size_t count, char *err, size_t errlen);

/* Compare buffer @p data (@p n elements of argument @p arg) with @p values. */
void check_compare(struct check_report *r, enum elemtype t, const void *data, size_t n,
		   unsigned arg, char *const *values, size_t count);

void check_report_clear(struct check_report *r);

#endif
