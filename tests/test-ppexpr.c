/* Tests for the #if evaluator of the source rewrite: what it knows agrees
 * with the C compiler, and what it does not know it says so. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <check.h>
#include <string.h>

#include "check-main.h"
#include "ppexpr.h"

/* The same macros for the evaluator (defs) and for this file's compiler. */
#define ONE 1
#define TWO (ONE + ONE)
#define NEG -5
#define EMPTY
static const struct {
	const char *name, *body;
} defs[] = {
	{ "ONE", "1" }, { "TWO", "(ONE + ONE)" }, { "NEG", "-5" }, { "EMPTY", "" },
};

/* Defined with a value not known: UNKNOWN_VALUE (and FN, function-like);
 * maybe defined: MAYBE_DEF; anything else is not defined. */
static enum tri
lookup(void *ctx, const char *name, size_t len, const char **body, const char **body_end)
{
	(void)ctx;
	*body = *body_end = NULL;
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		if (strlen(defs[i].name) == len && strncmp(defs[i].name, name, len) == 0) {
			*body = defs[i].body;
			*body_end = defs[i].body + strlen(defs[i].body);
			return TRI_YES;
		}
	}
	if ((len == 13 && strncmp(name, "UNKNOWN_VALUE", 13) == 0) ||
	    (len == 2 && strncmp(name, "FN", 2) == 0))
		return TRI_YES;
	return len == 9 && strncmp(name, "MAYBE_DEF", 9) == 0 ? TRI_MAYBE : TRI_NO;
}

static enum tri
eval(const char *text)
{
	return pp_eval(text, text + strlen(text), lookup, NULL);
}

/* Expressions the compiler evaluates here too: its value is the reference.
 * Some test precedence, so they go without the parentheses it asks for. */
#define CASE(e) { #e, (e) != 0 }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
static const struct {
	const char *text;
	int value;
} known[] = {
	CASE(1 + 2 * 3 == 7), CASE((1 + 2) * 3 == 9), CASE(TWO * 3 - ONE), CASE(-NEG % 3),
	CASE(NEG / 2 == -2), CASE(1 << 4 >> 2 == 4), CASE(0x10 | 0x01 ^ 0x03 & 0x06),
	CASE(~0 == -1), CASE(!ONE || 0), CASE(ONE ? TWO : 0), CASE(0 ? 1 : 0),
	CASE(10 >= 10 && 3 <= 2), CASE(7 != 7), CASE(017 == 15 && 0x1F == 31), CASE(5 - 3 - 1),
	CASE(100 / 10 / 5 == 2), CASE(1 - -1 == 2), CASE(ONE + 2 < 4 == 1), CASE(3 > 2 > 1),
	CASE(1 ? 0 ? 5 : 6 : 7), CASE(10u % 4ul == 2), CASE(-(2 - 3) * EMPTY 4 == 4),
};
#pragma GCC diagnostic pop

START_TEST(test_known)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		ck_assert_msg(eval(known[i].text) == (known[i].value ? TRI_YES : TRI_NO),
			      "#if %s: got %d, the compiler says %d", known[i].text, eval(known[i].text),
			      known[i].value);
}
END_TEST

static const struct {
	const char *text;
	enum tri want;
} cases[] = {
	{ "defined(ONE) && !defined NOPE", TRI_YES },
	{ "defined ( EMPTY ) && defined UNKNOWN_VALUE", TRI_YES },
	{ "NOPE", TRI_NO },
	{ "NOPE + 1", TRI_YES },
	{ "defined(MAYBE_DEF)", TRI_MAYBE },
	{ "defined(MAYBE_DEF) || 1", TRI_YES },
	{ "!defined(MAYBE_DEF) && 0", TRI_NO },
	{ "UNKNOWN_VALUE >= 200", TRI_MAYBE },
	{ "0 && UNKNOWN_VALUE", TRI_NO },
	{ "1 || UNKNOWN_VALUE", TRI_YES },
	{ "UNKNOWN_VALUE ? 1 : 1", TRI_YES },
	{ "UNKNOWN_VALUE ? 1 : 0", TRI_MAYBE },
	{ "FN(1)", TRI_MAYBE },
	{ "FN(1) || ONE", TRI_YES },
	{ "1 / 0", TRI_MAYBE },
	{ "1 +", TRI_MAYBE },
	{ "(1", TRI_MAYBE },
	{ "1 2", TRI_MAYBE },
	{ "1.5 > 1", TRI_MAYBE },
	{ "'a' == 97", TRI_MAYBE },
	{ "", TRI_MAYBE },
	{ "ONE /* a comment */ == 1 // and the rest", TRI_YES },
	{ "ONE \\\n + 1 == 2", TRI_YES },
};

START_TEST(test_unknown)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(eval(cases[i].text) == cases[i].want, "#if %s: got %d, want %d",
			      cases[i].text, eval(cases[i].text), cases[i].want);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("ppexpr");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_known);
	tcase_add_test(tc, test_unknown);
	suite_add_tcase(s, tc);
	return test_main(s);
}
