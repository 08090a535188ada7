/* clwarp-run: the counts and sizes of the command line (-g, -l, -w, --repeat),
 * and the local size when none is given. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_LAUNCH_SIZE_H
#define CLWARP_RUN_LAUNCH_SIZE_H

#include <stdbool.h>
#include <stddef.h>

/* A decimal count from 1 to @p max: digits only, no sign or blanks. */
bool launch_size_count(const char *text, unsigned long long max, unsigned long long *out);

/*
 * "N[,N[,N]]", each N at least 1, into @p sizes and @p dims. False with a
 * reason in @p why (to follow "bad global size '...': ") when malformed, or
 * when the work-items (the product) would overflow size_t.
 */
bool launch_size_parse(const char *text, size_t *sizes, unsigned *dims, char *why, size_t whylen);

/* The default local size for @p global of @p dims dimensions into @p local
 * (dimension 0 only; the others get 1): the largest L <= min(global, 256,
 * the device's maximum work-group size @p max_wg) that is a multiple of the
 * warp size and divides global; false when there is no such L. */
bool launch_size_default_local(const size_t *global, unsigned dims, unsigned warp, size_t max_wg,
			       size_t *local);

#endif
