/* clwarp-run: the element types of buffer and scalar arguments. */
/* SPDX-License-Identifier: MIT */
#include "elemtype.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct elemtype_desc {
	const char *name;
	size_t size;
	bool is_float;
	bool is_signed;
	int64_t min;
	uint64_t max;
};

static const struct elemtype_desc types[ET_COUNT] = {
	[ET_CHAR] = { "char", 1, false, true, INT8_MIN, INT8_MAX },
	[ET_UCHAR] = { "uchar", 1, false, false, 0, UINT8_MAX },
	[ET_SHORT] = { "short", 2, false, true, INT16_MIN, INT16_MAX },
	[ET_USHORT] = { "ushort", 2, false, false, 0, UINT16_MAX },
	[ET_INT] = { "int", 4, false, true, INT32_MIN, INT32_MAX },
	[ET_UINT] = { "uint", 4, false, false, 0, UINT32_MAX },
	[ET_LONG] = { "long", 8, false, true, INT64_MIN, INT64_MAX },
	[ET_ULONG] = { "ulong", 8, false, false, 0, UINT64_MAX },
	[ET_FLOAT] = { "float", 4, true, true, 0, 0 },
	[ET_DOUBLE] = { "double", 8, true, true, 0, 0 },
};

const char *
elemtype_name(enum elemtype t)
{
	return t < ET_COUNT ? types[t].name : "?";
}

size_t
elemtype_size(enum elemtype t)
{
	return types[t].size;
}

bool
elemtype_is_float(enum elemtype t)
{
	return types[t].is_float;
}

bool
elemtype_is_signed(enum elemtype t)
{
	return types[t].is_signed;
}

/* <stdint.h>'s names, as <clwarp/cuda.h> declares them. */
static const struct {
	const char *name;
	enum elemtype type;
} aliases[] = {
	{ "int8_t", ET_CHAR }, { "uint8_t", ET_UCHAR }, { "int16_t", ET_SHORT },
	{ "uint16_t", ET_USHORT }, { "int32_t", ET_INT }, { "uint32_t", ET_UINT },
	{ "int64_t", ET_LONG }, { "uint64_t", ET_ULONG },
};

bool
elemtype_from_name(const char *name, size_t len, enum elemtype *out)
{
	for (int t = 0; t < ET_COUNT; t++) {
		if (strlen(types[t].name) == len && strncmp(types[t].name, name, len) == 0) {
			*out = (enum elemtype)t;
			return true;
		}
	}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (strlen(aliases[i].name) == len && strncmp(aliases[i].name, name, len) == 0) {
			*out = aliases[i].type;
			return true;
		}
	}
	return false;
}

void
elemtype_store_bits(enum elemtype t, void *data, size_t index, uint64_t bits)
{
	switch (t) {
	case ET_CHAR:
	case ET_UCHAR: {
		uint8_t v = (uint8_t)bits;
		memcpy((char *)data + index, &v, 1);
		break;
	}
	case ET_SHORT:
	case ET_USHORT: {
		uint16_t v = (uint16_t)bits;
		memcpy((char *)data + index * 2, &v, 2);
		break;
	}
	case ET_INT:
	case ET_UINT: {
		uint32_t v = (uint32_t)bits;
		memcpy((char *)data + index * 4, &v, 4);
		break;
	}
	case ET_LONG:
	case ET_ULONG:
		memcpy((char *)data + index * 8, &bits, 8);
		break;
	case ET_FLOAT:
	case ET_DOUBLE:
	case ET_COUNT:
		break;
	}
}

void
elemtype_store_double(enum elemtype t, void *data, size_t index, double v)
{
	if (t == ET_FLOAT) {
		float f = (float)v;
		memcpy((char *)data + index * 4, &f, 4);
	} else if (t == ET_DOUBLE) {
		memcpy((char *)data + index * 8, &v, 8);
	}
}

bool
elemtype_int_fits(enum elemtype t, int64_t v)
{
	if (types[t].is_signed)
		return v >= types[t].min && v <= (int64_t)types[t].max;
	return v >= 0 && (uint64_t)v <= types[t].max;
}

bool
elemtype_parse_literal(enum elemtype t, const char *text, uint64_t *bits, double *d, char *err,
		       size_t errlen)
{
	const char *p = text;
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0') {
		snprintf(err, errlen, "empty %s value", types[t].name);
		return false;
	}
	errno = 0;
	if (types[t].is_float) {
		double v = strtod(p, &end);

		while (isspace((unsigned char)*end))
			end++;
		if (end == p || *end != '\0') {
			snprintf(err, errlen, "'%s' is not a %s value", text, types[t].name);
			return false;
		}
		if (t == ET_FLOAT && isfinite(v) && fabs(v) > FLT_MAX) {
			snprintf(err, errlen, "%s is out of range for float", text);
			return false;
		}
		if (errno == ERANGE && isinf(v)) {
			snprintf(err, errlen, "%s is out of range for %s", text, types[t].name);
			return false;
		}
		*d = v;
		return true;
	}
	bool neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p)) {
		snprintf(err, errlen, "'%s' is not an integer", text);
		return false;
	}
	uint64_t mag = strtoull(p, &end, p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 16 : 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0') {
		snprintf(err, errlen, "'%s' is not an integer", text);
		return false;
	}
	bool ok;
	if (errno == ERANGE)
		ok = false;
	else if (neg)
		ok = types[t].is_signed && mag <= (uint64_t)-(types[t].min + 1) + 1;
	else
		ok = mag <= types[t].max;
	if (!ok) {
		snprintf(err, errlen, "%s is out of range for %s", text, types[t].name);
		return false;
	}
	*bits = neg ? (uint64_t)0 - mag : mag;
	return true;
}

int64_t
elemtype_load_int(enum elemtype t, const void *data, size_t index)
{
	const char *p = data;

	switch (t) {
	case ET_CHAR: { int8_t v; memcpy(&v, p + index, 1); return v; }
	case ET_UCHAR: { uint8_t v; memcpy(&v, p + index, 1); return v; }
	case ET_SHORT: { int16_t v; memcpy(&v, p + index * 2, 2); return v; }
	case ET_USHORT: { uint16_t v; memcpy(&v, p + index * 2, 2); return v; }
	case ET_INT: { int32_t v; memcpy(&v, p + index * 4, 4); return v; }
	case ET_UINT: { uint32_t v; memcpy(&v, p + index * 4, 4); return v; }
	case ET_LONG: { int64_t v; memcpy(&v, p + index * 8, 8); return v; }
	case ET_ULONG: { uint64_t v; memcpy(&v, p + index * 8, 8); return (int64_t)v; }
	case ET_FLOAT: return (int64_t)elemtype_load_double(t, data, index);
	case ET_DOUBLE: return (int64_t)elemtype_load_double(t, data, index);
	case ET_COUNT: break;
	}
	return 0;
}

uint64_t
elemtype_load_uint(enum elemtype t, const void *data, size_t index)
{
	return (uint64_t)elemtype_load_int(t, data, index);
}

double
elemtype_load_double(enum elemtype t, const void *data, size_t index)
{
	const char *p = data;

	if (t == ET_FLOAT) {
		float v;
		memcpy(&v, p + index * 4, 4);
		return v;
	}
	if (t == ET_DOUBLE) {
		double v;
		memcpy(&v, p + index * 8, 8);
		return v;
	}
	if (t == ET_ULONG)
		return (double)elemtype_load_uint(t, data, index);
	return (double)elemtype_load_int(t, data, index);
}

const char *
elemtype_format(enum elemtype t, const void *data, size_t index, char *buf, size_t len)
{
	if (types[t].is_float) {
		double v = elemtype_load_double(t, data, index);

		if (isnan(v))
			snprintf(buf, len, "nan");
		else if (isinf(v))
			snprintf(buf, len, "%s", v < 0 ? "-inf" : "inf");
		else
			snprintf(buf, len, t == ET_FLOAT ? "%.9g" : "%.17g", v);
	} else if (types[t].is_signed) {
		snprintf(buf, len, "%" PRId64, elemtype_load_int(t, data, index));
	} else {
		snprintf(buf, len, "%" PRIu64, elemtype_load_uint(t, data, index));
	}
	return buf;
}
