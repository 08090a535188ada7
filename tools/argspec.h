/* clwarp-run: the argument SPEC parser and the buffer initialisers. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_ARGSPEC_H
#define CLWARP_RUN_ARGSPEC_H

#include "elemtype.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Buffers bigger than this are refused as a usage error (1 TiB). */
#define ARGSPEC_MAX_BYTES (UINT64_C(1) << 40)

enum argspec_kind {
	ARGSPEC_BUFFER,   /* TYPE[N][=INIT], out:TYPE[N][=INIT] */
	ARGSPEC_SCALAR,   /* TYPE:VALUE */
	ARGSPEC_LOCAL,    /* local:TYPE[N] */
};

enum argspec_init {
	INIT_ZERO,
	INIT_IOTA,
	INIT_FILL,
	INIT_RAND,
	INIT_LIST,
	INIT_FILE,
	INIT_EXPR,
};

struct expr;

struct argspec {
	char *text;              /* the SPEC as given */
	enum argspec_kind kind;
	bool out;
	enum elemtype type;
	size_t count;            /* N; 1 for a scalar */
	size_t bytes;            /* N * sizeof(TYPE) */
	enum argspec_init init;
	/* Integer types use the *_bits fields (two's complement), float types
	 * the *_d fields. A scalar's value is in a_bits / a_d. */
	uint64_t a_bits, b_bits, c_bits;
	double a_d, b_d;
	uint64_t *list_bits;
	double *list_d;
	char *path;              /* INIT_FILE, resolved against base_dir */
	struct expr *expr;       /* INIT_EXPR */
};

/*
 * Parse one SPEC. A relative @file path is taken relative to @p base_dir
 * when that is not NULL. On failure the message in @p err names the SPEC.
 */
bool argspec_parse(const char *text, const char *base_dir, struct argspec *spec, char *err,
		   size_t errlen);
void argspec_clear(struct argspec *spec);

/*
 * Fill @p data (spec->bytes, zeroed by the caller) with the INIT values of
 * a buffer SPEC; false with a message on an evaluation error (division by
 * zero, a value out of the type's range, an unreadable or wrongly sized
 * file).
 */
bool argspec_fill(const struct argspec *spec, void *data, char *err, size_t errlen);

/* The bytes of a scalar SPEC into @p out (at least 8 bytes). */
void argspec_scalar_value(const struct argspec *spec, void *out);

/* The generator behind rand(): splitmix64, advanced once per element. */
uint64_t argspec_splitmix64(uint64_t *state);

#endif
