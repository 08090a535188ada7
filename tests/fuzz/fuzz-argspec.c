/* Fuzz target: clwarp-run's argument SPEC parser and its INIT expressions. */
/* SPDX-License-Identifier: MIT */
#include "fuzz.h"

#include "argspec.h"
#include "expr.h"

/* Filling evaluates the INIT once per element: a small buffer is enough. */
#define FILL_MAX_COUNT 64

static void
check_expr(const char *text, bool floating)
{
	static const int64_t is[] = { 0, 1, 2, 7, -1, INT64_MAX, INT64_MIN };
	char err[256];
	struct expr *e = expr_parse(text, floating, err, sizeof(err));

	if (!e) {
		FUZZ_CHECK(err[0] != '\0');
		return;
	}
	for (size_t k = 0; k < sizeof(is) / sizeof(is[0]); k++) {
		int64_t iv;
		double dv;

		err[0] = '\0';
		if (!expr_eval_int(e, is[k], &iv, err, sizeof(err)))
			FUZZ_CHECK(err[0] != '\0');
		err[0] = '\0';
		if (!expr_eval_double(e, (double)is[k], &dv, err, sizeof(err)))
			FUZZ_CHECK(err[0] != '\0');
	}
	expr_free(e);
}

/* rand() promises integers in [lo, hi] and floats in [lo, hi) (the
 * element type's lo and hi: a float element holds a float). */
static void
check_rand(const struct argspec *spec, const void *buf)
{
	for (size_t i = 0; i < spec->count; i++) {
		if (spec->type == ET_FLOAT) {
			float v = (float)elemtype_load_double(spec->type, buf, i);

			FUZZ_CHECK(v >= (float)spec->a_d && v < (float)spec->b_d);
		} else if (spec->type == ET_DOUBLE) {
			double v = elemtype_load_double(spec->type, buf, i);

			FUZZ_CHECK(v >= spec->a_d && v < spec->b_d);
		} else if (elemtype_is_signed(spec->type)) {
			int64_t v = elemtype_load_int(spec->type, buf, i);

			FUZZ_CHECK(v >= (int64_t)spec->b_bits && v <= (int64_t)spec->c_bits);
		} else {
			uint64_t v = elemtype_load_uint(spec->type, buf, i);

			FUZZ_CHECK(v >= spec->b_bits && v <= spec->c_bits);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct argspec spec;
	char err[512] = "";

	if (argspec_parse(text, "/nonexistent-base", &spec, err, sizeof(err))) {
		FUZZ_CHECK(spec.count >= 1 && spec.bytes >= spec.count);
		/* INIT_FILE reads a file: not the parser, and it could name a FIFO. */
		if (spec.kind == ARGSPEC_BUFFER && spec.init != INIT_FILE &&
		    spec.count <= FILL_MAX_COUNT) {
			void *buf = calloc(1, spec.bytes);

			FUZZ_CHECK(buf);
			err[0] = '\0';
			if (!argspec_fill(&spec, buf, err, sizeof(err)))
				FUZZ_CHECK(err[0] != '\0' && spec.init != INIT_RAND);
			else if (spec.init == INIT_RAND)
				check_rand(&spec, buf);
			free(buf);
		}
		if (spec.kind == ARGSPEC_SCALAR) {
			uint8_t value[8];

			argspec_scalar_value(&spec, value);
		}
	} else {
		FUZZ_CHECK(err[0] != '\0');
	}
	argspec_clear(&spec);

	/* The expression parser on its own, in both modes. */
	check_expr(text, false);
	check_expr(text, true);
	free(text);
	return 0;
}
