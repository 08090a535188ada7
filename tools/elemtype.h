/* clwarp-run: the element types of buffer and scalar arguments. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_ELEMTYPE_H
#define CLWARP_RUN_ELEMTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum elemtype {
	ET_CHAR,
	ET_UCHAR,
	ET_SHORT,
	ET_USHORT,
	ET_INT,
	ET_UINT,
	ET_LONG,
	ET_ULONG,
	ET_FLOAT,
	ET_DOUBLE,
	ET_COUNT,
};

/* "int", "float", ...; never NULL for a valid type. */
const char *elemtype_name(enum elemtype t);
size_t elemtype_size(enum elemtype t);
bool elemtype_is_float(enum elemtype t);
bool elemtype_is_signed(enum elemtype t);

/* Find a type by name (the first @p len bytes of @p name); false if unknown. */
bool elemtype_from_name(const char *name, size_t len, enum elemtype *out);

/* Store an integer value (already range-checked) as element @p index. */
void elemtype_store_bits(enum elemtype t, void *data, size_t index, uint64_t bits);
/* Store a floating-point value as element @p index of a float or double array. */
void elemtype_store_double(enum elemtype t, void *data, size_t index, double v);

/* Whether int64 @p v fits an integer type @p t. */
bool elemtype_int_fits(enum elemtype t, int64_t v);

/*
 * Parse one literal of type @p t: for integer types a decimal, 0x hex or 0
 * octal integer with an optional sign, range-checked; for float types
 * anything strtod() takes, including nan and inf. On success *bits (integer
 * types) or *d (float types) holds the value; on failure @p err says why.
 */
bool elemtype_parse_literal(enum elemtype t, const char *text, uint64_t *bits, double *d,
			    char *err, size_t errlen);

/* Read element @p index as int64 / uint64 (integer types) or double. */
int64_t elemtype_load_int(enum elemtype t, const void *data, size_t index);
uint64_t elemtype_load_uint(enum elemtype t, const void *data, size_t index);
double elemtype_load_double(enum elemtype t, const void *data, size_t index);

/*
 * Format element @p index: integers plainly, float with %.9g, double with
 * %.17g; NaN and infinities as "nan", "inf", "-inf". Returns @p buf.
 */
const char *elemtype_format(enum elemtype t, const void *data, size_t index, char *buf, size_t len);

#endif
