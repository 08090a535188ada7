/* clwarp-run: comparing out: buffers with the file's expect lines. */
/* SPDX-License-Identifier: MIT */
#include "check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool
check_validate(enum elemtype t, char *const *values, size_t count, char *err, size_t errlen)
{
	for (size_t i = 0; i < count; i++) {
		uint64_t bits;
		double d;

		if (!elemtype_parse_literal(t, values[i], &bits, &d, err, errlen))
			return false;
	}
	return true;
}

static void
add_line(struct check_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
add_line(struct check_report *r, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	r->mismatches++;
	if (r->line_count >= CHECK_MAX_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	r->lines[r->line_count] = strdup(buf);
	if (r->lines[r->line_count])
		r->line_count++;
}

static bool
float_matches(double got, double want)
{
	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	if (got == want)
		return true;
	return fabs(got - want) <= CHECK_ABS_TOL + CHECK_REL_TOL * fabs(want);
}

void
check_compare(struct check_report *r, enum elemtype t, const void *data, size_t n, unsigned arg,
	      char *const *values, size_t count)
{
	char got[64];

	if (count != n) {
		add_line(r, "arg%u: the expect line has %zu values, the buffer %zu elements", arg,
			 count, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t bits = 0;
		double d = 0;
		char err[80];
		bool ok;

		if (!elemtype_parse_literal(t, values[i], &bits, &d, err, sizeof(err))) {
			ok = false;
		} else if (elemtype_is_float(t)) {
			ok = float_matches(elemtype_load_double(t, data, i), d);
		} else {
			uint64_t mine = elemtype_load_uint(t, data, i);
			size_t width = elemtype_size(t) * 8;
			uint64_t mask = width == 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;

			ok = (mine & mask) == (bits & mask);
		}
		if (!ok)
			add_line(r, "arg%u[%zu]: got %s, expected %s", arg, i,
				 elemtype_format(t, data, i, got, sizeof(got)), values[i]);
	}
}

void
check_report_clear(struct check_report *r)
{
	for (size_t i = 0; i < r->line_count; i++)
		free(r->lines[i]);
	memset(r, 0, sizeof(*r));
}
