/* clwarp-run: the counts and sizes of the command line (launch-size.h). */
/* SPDX-License-Identifier: MIT */
#include "launch-size.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Default local size search: at most this many work-items per group. */
#define DEFAULT_LOCAL_MAX 256

bool
launch_size_count(const char *text, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*text))
		return false;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end || v == 0 || v > max)
		return false;
	*out = v;
	return true;
}

bool
launch_size_parse(const char *text, size_t *sizes, unsigned *dims, char *why, size_t whylen)
{
	char copy[256];
	char *save = NULL, *tok;
	unsigned n = 0;
	size_t product = 1;

	if (strlen(text) >= sizeof(copy) || !*text || text[strlen(text) - 1] == ',' ||
	    strstr(text, ",,") || text[0] == ',') {
		snprintf(why, whylen, "expected N[,N[,N]], each at least 1");
		return false;
	}
	strcpy(copy, text);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long long v;

		if (n == 3) {
			snprintf(why, whylen, "expected N[,N[,N]]: at most 3 dimensions");
			return false;
		}
		if (!launch_size_count(tok, SIZE_MAX, &v)) {
			bool digits = tok[strspn(tok, "0123456789")] == '\0';

			if (digits && tok[strspn(tok, "0")] != '\0')
				snprintf(why, whylen, "%s is more than size_t holds (%zu)", tok, (size_t)SIZE_MAX);
			else
				snprintf(why, whylen, "expected N[,N[,N]], each at least 1");
			return false;
		}
		if (product > SIZE_MAX / v) {
			snprintf(why, whylen, "the work-items (the product of the sizes) overflow size_t");
			return false;
		}
		product *= (size_t)v;
		sizes[n++] = (size_t)v;
	}
	*dims = n;
	return n > 0;
}

bool
launch_size_default_local(const size_t *global, unsigned dims, unsigned warp, size_t max_wg,
			  size_t *local)
{
	size_t limit = global[0] < DEFAULT_LOCAL_MAX ? global[0] : DEFAULT_LOCAL_MAX;

	if (max_wg && limit > max_wg)
		limit = max_wg;
	if (!warp)
		warp = 1;
	for (size_t l = limit - limit % warp; l >= warp && l > 0; l -= warp) {
		if (global[0] % l == 0) {
			local[0] = l;
			for (unsigned d = 1; d < dims; d++)
				local[d] = 1;
			return true;
		}
	}
	return false;
}
