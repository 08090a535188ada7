/* clwarp-run: the argument SPEC parser and the buffer initialisers. */
/* SPDX-License-Identifier: MIT */
#include "argspec.h"

#include "expr.h"
#include "regular-file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool
fail(char *err, size_t errlen, const char *spec, const char *why)
{
	snprintf(err, errlen, "bad argument SPEC '%s': %s", spec, why);
	return false;
}

static bool
starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Split "a,b,c" (a copy of @p text) into at most @p max trimmed items. */
static size_t
split_commas(char *text, char **items, size_t max)
{
	size_t n = 0;
	char *p = text;

	for (;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		while (isspace((unsigned char)*p))
			p++;
		char *end = p + strlen(p);
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (n < max)
			items[n] = p;
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return n;
}

/* Parse a literal of @p type into the bits or double slot. */
static bool
literal(enum elemtype type, const char *text, uint64_t *bits, double *d, const char *spec,
	char *err, size_t errlen)
{
	char why[200];

	if (!elemtype_parse_literal(type, text, bits, d, why, sizeof(why)))
		return fail(err, errlen, spec, why);
	return true;
}

/* The arguments inside "name(...)": @p inner is a writable copy. */
static bool
call_args(const char *init, const char *name, char *copy, char **items, size_t max, size_t *n)
{
	size_t len = strlen(name);
	size_t total = strlen(init);

	if (strncmp(init, name, len) != 0 || init[len] != '(' || total < len + 2 ||
	    init[total - 1] != ')')
		return false;
	memcpy(copy, init + len + 1, total - len - 2);
	copy[total - len - 2] = '\0';
	*n = split_commas(copy, items, max);
	return true;
}

/* INIT @FILE: a relative path is from @p base_dir where there is one. */
static bool
init_file(struct argspec *a, const char *path, const char *base_dir, char *err, size_t errlen)
{
	a->init = INIT_FILE;
	if (!*path)
		return fail(err, errlen, a->text, "@ needs a file name");
	if (path[0] != '/' && base_dir && *base_dir) {
		size_t len = strlen(base_dir) + strlen(path) + 2;

		a->path = malloc(len);
		if (a->path)
			snprintf(a->path, len, "%s/%s", base_dir, path);
	} else {
		a->path = strdup(path);
	}
	if (!a->path)
		return fail(err, errlen, a->text, "out of memory");
	return true;
}

/* INIT rand(seed) or rand(seed,lo,hi), its @p n arguments in @p items. */
static bool
init_rand(struct argspec *a, char **items, size_t n, char *err, size_t errlen)
{
	bool fl = elemtype_is_float(a->type);
	double unused;
	bool ok;

	a->init = INIT_RAND;
	a->b_bits = 0;
	a->c_bits = 99;
	a->a_d = 0;
	a->b_d = 1;
	if (n != 1 && n != 3)
		return fail(err, errlen, a->text, "rand takes rand(seed) or rand(seed,lo,hi)");
	ok = literal(ET_ULONG, items[0], &a->a_bits, &unused, a->text, err, errlen);
	if (ok && n == 3)
		ok = literal(a->type, items[1], &a->b_bits, &a->a_d, a->text, err, errlen) &&
		     literal(a->type, items[2], &a->c_bits, &a->b_d, a->text, err, errlen);
	/* The values are lo + (hi - lo) * u: an infinite hi - lo
	 * would make them all hi's neighbour, or NaN at u = 0. For
	 * float, lo and hi rounding to one float leave no value in
	 * [lo, hi). */
	if (ok && fl && !(a->a_d < a->b_d && isfinite(a->b_d - a->a_d) &&
			  (a->type != ET_FLOAT || (float)a->a_d < (float)a->b_d)))
		ok = fail(err, errlen, a->text,
			  "rand needs lo < hi, as values of the type, with hi - lo finite");
	if (ok && !fl &&
	    (elemtype_is_signed(a->type) ? (int64_t)a->b_bits > (int64_t)a->c_bits
					 : a->b_bits > a->c_bits))
		ok = fail(err, errlen, a->text, "rand needs lo <= hi");
	return ok;
}

/* INIT a,b,c: one value for each element; @p copy has room for @p init. */
static bool
init_list(struct argspec *a, const char *init, char *copy, char *err, size_t errlen)
{
	bool fl = elemtype_is_float(a->type);
	size_t count;
	char **all;
	bool ok = true;

	a->init = INIT_LIST;
	strcpy(copy, init);
	count = split_commas(copy, NULL, 0);
	if (count != a->count) {
		char why[160];

		snprintf(why, sizeof(why), "the list has %zu values, the buffer %zu elements",
			 count, a->count);
		return fail(err, errlen, a->text, why);
	}
	all = malloc(count * sizeof(*all));
	if (fl)
		a->list_d = malloc(count * sizeof(double));
	else
		a->list_bits = malloc(count * sizeof(uint64_t));
	if (!all || (!a->list_d && !a->list_bits)) {
		ok = fail(err, errlen, a->text, "out of memory");
	} else {
		strcpy(copy, init);
		split_commas(copy, all, count);
		for (size_t k = 0; ok && k < count; k++) {
			uint64_t bits = 0;
			double d = 0;

			ok = literal(a->type, all[k], &bits, &d, a->text, err, errlen);
			if (fl)
				a->list_d[k] = d;
			else
				a->list_bits[k] = bits;
		}
	}
	free(all);
	return ok;
}

/* INIT EXPR, an expression of the element index; or an unknown NAME(...). */
static bool
init_expr(struct argspec *a, const char *init, char *err, size_t errlen)
{
	const char *p = init;
	char why[300];

	while (isalpha((unsigned char)*p) || *p == '_')
		p++;
	if (p - init > 1 && *p == '(') {
		snprintf(why, sizeof(why),
			 "unknown INIT function '%.*s' (expected iota, fill or rand)",
			 (int)(p - init), init);
		return fail(err, errlen, a->text, why);
	}
	a->init = INIT_EXPR;
	a->expr = expr_parse(init, elemtype_is_float(a->type), why, sizeof(why));
	if (!a->expr)
		return fail(err, errlen, a->text, why);
	return true;
}

static bool
parse_init(struct argspec *a, const char *init, const char *base_dir, char *err, size_t errlen)
{
	bool fl = elemtype_is_float(a->type);
	char *copy = malloc(strlen(init) + 1);
	char *items[3];
	size_t n;
	bool ok = true;

	if (!copy)
		return fail(err, errlen, a->text, "out of memory");
	if (init[0] == '@') {
		ok = init_file(a, init + 1, base_dir, err, errlen);
	} else if (strcmp(init, "iota") == 0) {
		a->init = INIT_IOTA;
		a->a_bits = 0;
		a->b_bits = 1;
		a->a_d = 0;
		a->b_d = 1;
	} else if (call_args(init, "iota", copy, items, 3, &n)) {
		a->init = INIT_IOTA;
		if (n != 2)
			ok = fail(err, errlen, a->text, "iota takes two values: iota(start,step)");
		else
			ok = literal(fl ? a->type : ET_LONG, items[0], &a->a_bits, &a->a_d, a->text, err,
				     errlen) &&
			     literal(fl ? a->type : ET_LONG, items[1], &a->b_bits, &a->b_d, a->text, err,
				     errlen);
	} else if (call_args(init, "fill", copy, items, 3, &n)) {
		a->init = INIT_FILL;
		if (n != 1)
			ok = fail(err, errlen, a->text, "fill takes one value: fill(v)");
		else
			ok = literal(a->type, items[0], &a->a_bits, &a->a_d, a->text, err, errlen);
	} else if (call_args(init, "rand", copy, items, 3, &n)) {
		ok = init_rand(a, items, n, err, errlen);
	} else if (starts_with(init, "iota(") || starts_with(init, "fill(") || starts_with(init, "rand(")) {
		char why[80];

		/* Not a list or an expression: a call that does not end in its ')'. */
		snprintf(why, sizeof(why), "%.4s(...) needs its closing ')' at the end, with nothing after it",
			 init);
		ok = fail(err, errlen, a->text, why);
	} else if (strchr(init, ',')) {
		ok = init_list(a, init, copy, err, errlen);
	} else {
		ok = init_expr(a, init, err, errlen);
	}
	free(copy);
	return ok;
}

/* A buffer's "[N]" at @p p: a->count and a->bytes, and *rest after the ']'. */
static bool
parse_count(struct argspec *a, const char *p, const char **rest, const char *text, char *err,
	    size_t errlen)
{
	char why[200];
	uint64_t n = 0;

	if (*p != '[')
		return fail(err, errlen, text, "expected [N] or :VALUE after the type");
	p++;
	if (!isdigit((unsigned char)*p))
		return fail(err, errlen, text, "expected an element count inside [ ]");
	while (isdigit((unsigned char)*p)) {
		unsigned digit = (unsigned)(*p++ - '0');

		if (n > (UINT64_MAX - digit) / 10)
			return fail(err, errlen, text, "the element count overflows");
		n = n * 10 + digit;
	}
	if (*p != ']')
		return fail(err, errlen, text, "expected ']' after the element count");
	p++;
	if (n == 0)
		return fail(err, errlen, text, "a buffer needs at least one element");
	if (n > UINT64_MAX / elemtype_size(a->type) || n * elemtype_size(a->type) > SIZE_MAX)
		return fail(err, errlen, text, "the buffer size overflows");
	if (n * elemtype_size(a->type) > ARGSPEC_MAX_BYTES) {
		snprintf(why, sizeof(why), "%llu bytes is too large (the limit is 1 TiB)",
			 (unsigned long long)(n * elemtype_size(a->type)));
		return fail(err, errlen, text, why);
	}
	a->count = (size_t)n;
	a->bytes = (size_t)(n * elemtype_size(a->type));
	*rest = p;
	return true;
}

bool
argspec_parse(const char *text, const char *base_dir, struct argspec *a, char *err, size_t errlen)
{
	const char *p = text;
	const char *name;
	char why[200];

	memset(a, 0, sizeof(*a));
	a->text = strdup(text);
	if (!a->text)
		return fail(err, errlen, text, "out of memory");
	a->kind = ARGSPEC_BUFFER;
	if (starts_with(p, "out:")) {
		a->out = true;
		p += 4;
	} else if (starts_with(p, "local:")) {
		a->kind = ARGSPEC_LOCAL;
		p += 6;
	}
	name = p;
	while (isalpha((unsigned char)*p))
		p++;
	/* <stdint.h>'s names (int32_t); int4 stays int and 4. */
	if (p > name && isdigit((unsigned char)*p)) {
		const char *d = p;

		while (isdigit((unsigned char)*d))
			d++;
		if (d[0] == '_' && d[1] == 't')
			p = d + 2;
	}
	if (p == name)
		return fail(err, errlen, text, "expected a type (char uchar short ushort int uint long ulong float double)");
	if (!elemtype_from_name(name, (size_t)(p - name), &a->type)) {
		snprintf(why, sizeof(why),
			 "unknown type '%.*s' (expected char uchar short ushort int uint long ulong float "
			 "double, or int8_t .. uint64_t)",
			 (int)(p - name), name);
		return fail(err, errlen, text, why);
	}
	if (*p == ':') {
		if (a->out || a->kind == ARGSPEC_LOCAL)
			return fail(err, errlen, text, "a scalar cannot be out: or local:; use TYPE:VALUE");
		a->kind = ARGSPEC_SCALAR;
		a->count = 1;
		a->bytes = elemtype_size(a->type);
		return literal(a->type, p + 1, &a->a_bits, &a->a_d, text, err, errlen);
	}
	if (!parse_count(a, p, &p, text, err, errlen))
		return false;
	a->init = INIT_ZERO;
	if (*p == '\0')
		return true;
	if (*p != '=')
		return fail(err, errlen, text, "expected '=INIT' or nothing after [N]");
	if (a->kind == ARGSPEC_LOCAL)
		return fail(err, errlen, text, "local memory cannot be initialised");
	p++;
	if (!*p)
		return fail(err, errlen, text, "empty INIT after '='");
	return parse_init(a, p, base_dir, err, errlen);
}

void
argspec_clear(struct argspec *a)
{
	free(a->text);
	free(a->list_bits);
	free(a->list_d);
	free(a->path);
	expr_free(a->expr);
	memset(a, 0, sizeof(*a));
}

uint64_t
argspec_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static bool
fill_file(const struct argspec *a, void *data, char *err, size_t errlen)
{
	char why[512];
	FILE *f = regular_file_open(a->path, why, sizeof(why));
	struct stat st;
	bool ok = false;

	if (!f) {
		snprintf(err, errlen, "argument SPEC '%s': %s", a->text, why);
		return false;
	}
	if (fstat(fileno(f), &st) != 0) {
		snprintf(err, errlen, "argument SPEC '%s': cannot read %s: %s", a->text, a->path,
			 strerror(errno));
	} else if ((uint64_t)st.st_size != a->bytes) {
		snprintf(err, errlen,
			 "argument SPEC '%s': %s has %llu bytes; %s[%zu] needs exactly %zu",
			 a->text, a->path, (unsigned long long)st.st_size, elemtype_name(a->type),
			 a->count, a->bytes);
	} else if (fread(data, 1, a->bytes, f) != a->bytes) {
		snprintf(err, errlen, "argument SPEC '%s': cannot read %s", a->text, a->path);
	} else {
		ok = true;
	}
	fclose(f);
	return ok;
}

static bool
store_int(const struct argspec *a, void *data, size_t i, int64_t v, char *err, size_t errlen)
{
	if (!elemtype_int_fits(a->type, v)) {
		snprintf(err, errlen, "argument SPEC '%s': element %zu is %lld, out of range for %s",
			 a->text, i, (long long)v, elemtype_name(a->type));
		return false;
	}
	elemtype_store_bits(a->type, data, i, (uint64_t)v);
	return true;
}

static bool
store_double(const struct argspec *a, void *data, size_t i, double v, char *err, size_t errlen)
{
	if (a->type == ET_FLOAT && isfinite(v) && fabs(v) > 3.4028234663852886e38) {
		snprintf(err, errlen, "argument SPEC '%s': element %zu is %g, out of range for float",
			 a->text, i, v);
		return false;
	}
	elemtype_store_double(a->type, data, i, v);
	return true;
}

static void
fill_rand(const struct argspec *a, void *data)
{
	uint64_t state = a->a_bits;

	for (size_t i = 0; i < a->count; i++) {
		uint64_t z = argspec_splitmix64(&state);

		if (a->type == ET_FLOAT) {
			double u = (double)(z >> 11) * 0x1.0p-53;
			float f = (float)(a->a_d + (a->b_d - a->a_d) * u);

			if (f >= (float)a->b_d)
				f = nextafterf((float)a->b_d, -INFINITY);
			if (f < (float)a->a_d)
				f = (float)a->a_d;
			elemtype_store_double(a->type, data, i, f);
		} else if (a->type == ET_DOUBLE) {
			double u = (double)(z >> 11) * 0x1.0p-53;
			double d = a->a_d + (a->b_d - a->a_d) * u;

			if (d >= a->b_d)
				d = nextafter(a->b_d, -INFINITY);
			elemtype_store_double(a->type, data, i, d);
		} else {
			uint64_t range = a->c_bits - a->b_bits + 1;

			elemtype_store_bits(a->type, data, i, a->b_bits + (range ? z % range : z));
		}
	}
}

bool
argspec_fill(const struct argspec *a, void *data, char *err, size_t errlen)
{
	bool fl = elemtype_is_float(a->type);

	if (a->kind != ARGSPEC_BUFFER)
		return true;
	switch (a->init) {
	case INIT_ZERO:
		return true;
	case INIT_FILE:
		return fill_file(a, data, err, errlen);
	case INIT_RAND:
		fill_rand(a, data);
		return true;
	case INIT_FILL:
		for (size_t i = 0; i < a->count; i++) {
			if (fl)
				elemtype_store_double(a->type, data, i, a->a_d);
			else
				elemtype_store_bits(a->type, data, i, a->a_bits);
		}
		return true;
	case INIT_LIST:
		for (size_t i = 0; i < a->count; i++) {
			if (fl)
				elemtype_store_double(a->type, data, i, a->list_d[i]);
			else
				elemtype_store_bits(a->type, data, i, a->list_bits[i]);
		}
		return true;
	case INIT_IOTA:
		for (size_t i = 0; i < a->count; i++) {
			if (fl) {
				if (!store_double(a, data, i, a->a_d + (double)i * a->b_d, err, errlen))
					return false;
			} else {
				int64_t v;

				if (i > INT64_MAX ||
				    __builtin_mul_overflow((int64_t)i, (int64_t)a->b_bits, &v) ||
				    __builtin_add_overflow(v, (int64_t)a->a_bits, &v)) {
					snprintf(err, errlen, "argument SPEC '%s': element %zu overflows", a->text, i);
					return false;
				}
				if (!store_int(a, data, i, v, err, errlen))
					return false;
			}
		}
		return true;
	case INIT_EXPR:
		for (size_t i = 0; i < a->count; i++) {
			char why[200];

			if (fl) {
				double v;

				if (!expr_eval_double(a->expr, (double)i, &v, why, sizeof(why))) {
					snprintf(err, errlen, "argument SPEC '%s': %s", a->text, why);
					return false;
				}
				if (!store_double(a, data, i, v, err, errlen))
					return false;
			} else {
				int64_t v;

				if (!expr_eval_int(a->expr, (int64_t)i, &v, why, sizeof(why))) {
					snprintf(err, errlen, "argument SPEC '%s': %s", a->text, why);
					return false;
				}
				if (!store_int(a, data, i, v, err, errlen))
					return false;
			}
		}
		return true;
	}
	return true;
}

void
argspec_scalar_value(const struct argspec *a, void *out)
{
	if (elemtype_is_float(a->type))
		elemtype_store_double(a->type, out, 0, a->a_d);
	else
		elemtype_store_bits(a->type, out, 0, a->a_bits);
}
