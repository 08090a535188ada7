/* Look-back stress: many calls of every single-pass look-back algorithm
 * (compaction, partition, unique, scan, run-length encode, reduce by key,
 * sort) on random sizes and contents, each output compared element by
 * element with a host reference. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <time.h>

#include "test-algorithms.h"
#include "runs-reference.h"
#include "sort-reference.h"

/*
 * Environment:
 *   CLWARP_STRESS_CALLS   number of calls (default 128: under a minute on
 *                         PoCL 3.1, 2 cores, warm cache; 48 with
 *                         CLWARP_TEST_QUICK set)
 *   CLWARP_STRESS_MAX_N   largest n (default 4500000: the large calls have
 *                         at least 500 tiles for compaction, partition,
 *                         unique, scan and runs at the default tuning,
 *                         nv's 8192-element runs tiles included, so they
 *                         take ALGO_NAP's naps; sorts take half that n;
 *                         300000 with CLWARP_TEST_QUICK set)
 *   CLWARP_STRESS_SEED    the run's seed (default 20261126), printed at start
 *   CLWARP_STRESS_FIRST   the first call to run (replays call k of a seed)
 *   CLWARP_STRESS_ALGO    only calls of this algorithm ("run_length_encode",
 *                         "scan inclusive", ...: the names in the messages)
 *   CLWARP_STRESS_TYPE    only calls of this key type ("int", "uint", "float")
 *   CLWARP_STRESS_NAPS=1  where CLWARP_ALGO_TUNING is unset, set it to the
 *                         nv naps "runs_wait=1150,runs_poll=76,select_wait=
 *                         1150,select_poll=76,partition_wait=1150,
 *                         partition_poll=76,scan_wait=1150,scan_poll=76,
 *                         unique_wait=1150,unique_poll=76" (they compile
 *                         in on nv only)
 * Call k draws everything from its own seed, mix(seed, k), so one failing
 * call replays alone with CLWARP_STRESS_SEED, CLWARP_STRESS_FIRST=k and
 * CLWARP_STRESS_CALLS=k+1.
 */

uint64_t rng_state;   /* test-algorithms.h's make_data draws from it */

enum algo {
	ALG_COMPACT,
	ALG_PARTITION,
	ALG_PARTITION_REVERSED,
	ALG_UNIQUE,
	ALG_SCAN_INCLUSIVE,
	ALG_SCAN_EXCLUSIVE,
	ALG_RLE,
	ALG_RBK,
	ALG_SORT_KEYS,
	ALG_SORT_PAIRS,
	ALG_COUNT
};

static const char *const algo_names[] = {
	"compact", "partition", "partition_reversed", "unique", "scan inclusive",
	"scan exclusive", "run_length_encode", "reduce_by_key", "sort_keys", "sort_pairs",
};

static const clwarp_type stress_types[] = { CLWARP_TYPE_INT, CLWARP_TYPE_UINT, CLWARP_TYPE_FLOAT };

/* What a call is, for the failure message. */
struct call {
	unsigned index;
	enum algo algo;
	clwarp_type type, value_type;
	clwarp_op op;
	unsigned flags;
	size_t n;
	uint64_t seed, call_seed;
	size_t passed[ALG_COUNT];
	const char *only_algo, *only_type;   /* NULL: every one */
	unsigned skipped;
	size_t largest;
	unsigned large;   /* calls of at least 1 << 20 elements */
};

static unsigned long long
env_number(const char *name, unsigned long long fallback)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return fallback;
	v = strtoull(s, &end, 0);
	ck_assert_msg(*end == '\0', "%s=%s: expected a number", name, s);
	return v;
}

static void
fail_at(const struct call *c, size_t index, const char *what, uint64_t got, uint64_t want)
{
	char msg[768];

	snprintf(msg, sizeof(msg),
		 "call %u: %s, %s%s%s, op %s, flags 0x%x, n %zu, seed %" PRIu64
		 " (call seed %" PRIu64 "): %s %zu is 0x%" PRIx64 ", expected 0x%" PRIx64
		 "; replay: CLWARP_STRESS_SEED=%" PRIu64 " CLWARP_STRESS_FIRST=%u CLWARP_STRESS_CALLS=%u",
		 c->index, algo_names[c->algo], type_names[c->type],
		 c->algo == ALG_RBK ? " keys, values " : "",
		 c->algo == ALG_RBK ? type_names[c->value_type] : "", op_names[c->op], c->flags, c->n,
		 c->seed, c->call_seed, what, index, got, want, c->seed, c->index, c->index + 1);
	fprintf(stderr, "%s\n", msg);
	ck_abort_msg("%s", msg);
}

static void
expect_count(const struct call *c, cl_uint got, size_t want)
{
	if (got != want)
		fail_at(c, 0, "count", got, want);
}

/* ------------------------------------------------------------ compaction and partition */

static const char *
select_predicate(clwarp_type t)
{
	return t == CLWARP_TYPE_FLOAT ? "x > 0.0f" : t == CLWARP_TYPE_UINT ? "x > 1000u" : "x > 0";
}

static bool
selected(clwarp_type t, const void *b, size_t i)
{
	if (t == CLWARP_TYPE_FLOAT)
		return ((const float *)b)[i] > 0.0f;
	return t == CLWARP_TYPE_UINT ? ((const uint32_t *)b)[i] > 1000u : ((const int32_t *)b)[i] > 0;
}

/* Elements selected with probability `permille` / 1000 (0 and 1000: none, all). */
static void *
select_data(clwarp_type t, size_t n, unsigned permille, uint64_t *rs)
{
	uint32_t *b = malloc(n * 4 + 8);

	ck_assert_ptr_nonnull(b);
	for (size_t i = 0; i < n; i++) {
		uint64_t r = next_random(rs);
		bool sel = r % 1000 < permille;
		uint32_t mag = (uint32_t)(r >> 20) % 1000;
		float f = sel ? (float)(mag + 1) / 8.0f : -(float)mag / 8.0f;

		if (t == CLWARP_TYPE_FLOAT)
			memcpy(&b[i], &f, 4);
		else if (t == CLWARP_TYPE_UINT)
			b[i] = sel ? 1001u + mag : mag;
		else
			b[i] = sel ? mag + 1 : (uint32_t)-(int32_t)mag;
	}
	return b;
}

static void
stress_select(clwarp_engine *e, const struct call *c, uint64_t *rs)
{
	static const unsigned densities[] = { 0, 10, 300, 500, 990, 1000 };
	size_t n = c->n, total = 0, k = 0, r = 0;
	uint32_t *data = select_data(c->type, n, densities[next_random(rs) % 6], rs), *got;
	cl_mem in = device_copy(e, data, n * 4), out = device_copy(e, NULL, n * 4);
	cl_mem count = device_copy(e, NULL, 4);
	cl_uint got_count = 0;
	const char *pred = select_predicate(c->type);

	if (c->algo == ALG_COMPACT)
		ck_assert_clwarp_ok(clwarp_compact(e, c->type, in, out, count, n, pred, NULL));
	else if (c->algo == ALG_PARTITION)
		ck_assert_clwarp_ok(clwarp_partition(e, c->type, in, out, count, n, pred, 0, NULL));
	else
		ck_assert_clwarp_ok(clwarp_partition(e, c->type, in, out, count, n, pred,
				CLWARP_PARTITION_REVERSED, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, count, 0, 4, &got_count));
	got = device_read(e, out, n * 4);
	for (size_t i = 0; i < n; i++)
		total += selected(c->type, data, i);
	expect_count(c, got_count, total);
	/* Selected elements in order from 0; rejected ones after them in
	 * order (partition), from n - 1 down (reversed); compaction leaves
	 * the rest of `out` alone. */
	for (size_t i = 0; i < n; i++) {
		bool sel = selected(c->type, data, i);
		size_t at = sel ? k++ : c->algo == ALG_PARTITION ? total + r++ : n - 1 - r++;

		if (!sel && c->algo == ALG_COMPACT)
			continue;
		if (got[at] != data[i])
			fail_at(c, at, "element", got[at], data[i]);
	}
	for (size_t i = total; i < n && c->algo == ALG_COMPACT; i++)
		if (got[i] != (uint32_t)FILL_BITS(4))
			fail_at(c, i, "element past the count", got[i], FILL_BITS(4));
	free(got);
	free(data);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(count);
}

/* ------------------------------------------------------------ scan */

static void
stress_scan(clwarp_engine *e, const struct call *c)
{
	size_t n = c->n;
	int inclusive = c->algo == ALG_SCAN_INCLUSIVE;
	/* Floats are multiples of 1/8 in [-1, 1], a random walk: every sum
	 * of a stretch of them stays far below 2^21 in magnitude, so it is
	 * exact in any order of adding (test-algorithms.h). */
	void *data = make_data(c->type, n, c->type != CLWARP_TYPE_FLOAT);
	cl_mem in = device_copy(e, data, n * 4), out = device_copy(e, NULL, n * 4);
	uint64_t ri = identity_i(c->type, c->op);
	long double rf = identity_f(c->op);
	uint32_t *got;

	ck_assert_clwarp_ok(clwarp_scan(e, c->type, in, out, n, c->op,
			inclusive ? CLWARP_SCAN_INCLUSIVE : 0, NULL));
	got = device_read(e, out, n * 4);
	for (size_t i = 0; i < n; i++) {
		uint64_t want;

		if (inclusive) {
			ri = combine_i(c->type, c->op, ri, get_i(c->type, data, i));
			if (c->type == CLWARP_TYPE_FLOAT)
				rf = combine_f(c->op, rf, get_f(c->type, data, i));
		}
		want = c->type == CLWARP_TYPE_FLOAT ? double_to_bits(c->type, (double)rf) : (uint32_t)ri;
		if (got[i] != (uint32_t)want)
			fail_at(c, i, "element", got[i], (uint32_t)want);
		if (!inclusive) {
			ri = combine_i(c->type, c->op, ri, get_i(c->type, data, i));
			if (c->type == CLWARP_TYPE_FLOAT)
				rf = combine_f(c->op, rf, get_f(c->type, data, i));
		}
	}
	free(got);
	free(data);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
}

/* ------------------------------------------------------------ unique, run-length encode, reduce by key */

/*
 * Keys in runs of random length: a third of length 1, a third of 2-16,
 * the rest up to 5000 and now and then up to 100000 (dozens of tiles). A
 * run's key is one of a few values, so neighbouring runs also merge; float
 * keys include NaN (a run of its own per element) and both zeros (equal).
 */
static void
runs_keys(clwarp_type t, void *keys, size_t n, uint64_t *rs)
{
	static const float specials[] = { NAN, -0.0f, 0.0f, INFINITY, -1.5f, 2.0f };
	size_t i = 0;

	while (i < n) {
		uint64_t r = next_random(rs);
		size_t len = r % 3 == 0 ? 1 : r % 3 == 1 ? 2 + (r >> 8) % 15
				       : r % 64 == 2 ? 1 + (r >> 8) % 100000 : 1 + (r >> 8) % 5000;
		uint32_t key = (uint32_t)(r >> 40) % 6;

		for (size_t j = 0; j < len && i < n; j++, i++) {
			if (t == CLWARP_TYPE_FLOAT) {
				float f = specials[key];

				/* The zeros by turns inside a run: still one run. */
				if (key == 1 || key == 2)
					f = (j % 2) ? -0.0f : 0.0f;
				memcpy((uint32_t *)keys + i, &f, 4);
			} else {
				((uint32_t *)keys)[i] = key * 0x10001u - 2u;
			}
		}
	}
}

/* Values: full-range integers, floats in multiples of 1/8 (sums exact,
 * runs being at most 100000 long). */
static void
runs_values(clwarp_type t, void *values, size_t n, uint64_t *rs)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t r = next_random(rs);

		if (t == CLWARP_TYPE_FLOAT)
			set_bits(values, 4, i, double_to_bits(t, (double)((int)(r % 33) - 16) / 8.0));
		else
			set_bits(values, 4, i, r);
	}
}

static void
stress_runs(clwarp_engine *e, const struct call *c, uint64_t *rs)
{
	size_t n = c->n, runs;
	bool rbk = c->algo == ALG_RBK;
	uint32_t *keys = malloc(n * 4 + 8), *values = rbk ? malloc(n * 4 + 8) : NULL;
	uint64_t *ref_keys = malloc(n * 8 + 8), *ref_values = malloc(n * 8 + 8);
	clwarp_type vt = rbk ? c->value_type : CLWARP_TYPE_UINT;
	cl_mem kb, vb = NULL, uo = device_copy(e, NULL, n * 4), ao = NULL;
	cl_mem nb = device_copy(e, NULL, 4);
	uint32_t *got_k, *got_v = NULL;
	cl_uint got_n = 0;

	ck_assert(keys && ref_keys && ref_values && (values || !rbk));
	runs_keys(c->type, keys, n, rs);
	if (rbk)
		runs_values(vt, values, n, rs);
	runs = runs_reference(c->type, keys, vt, c->op, values, n, ref_keys, ref_values);
	kb = device_copy(e, keys, n * 4);
	if (c->algo == ALG_UNIQUE) {
		ck_assert_clwarp_ok(clwarp_unique(e, c->type, kb, uo, nb, n, NULL));
	} else if (c->algo == ALG_RLE) {
		ao = device_copy(e, NULL, n * 4);
		ck_assert_clwarp_ok(clwarp_run_length_encode(e, c->type, kb, uo, ao, nb, n, NULL));
	} else {
		vb = device_copy(e, values, n * 4);
		ao = device_copy(e, NULL, n * 4);
		ck_assert_clwarp_ok(clwarp_reduce_by_key(e, c->type, vt, kb, vb, uo, ao, nb, n,
							 c->op, NULL));
	}
	ck_assert_clwarp_ok(clwarp_buffer_read(e, nb, 0, 4, &got_n));
	expect_count(c, got_n, runs);
	got_k = device_read(e, uo, n * 4);
	if (ao)
		got_v = device_read(e, ao, n * 4);
	/* Past the runs, the outputs are left alone. */
	for (size_t r = 0; r < n; r++) {
		uint64_t want = r < runs ? ref_keys[r] : FILL_BITS(4);

		if (got_k[r] != want)
			fail_at(c, r, r < runs ? "key" : "key past the runs", got_k[r], want);
		if (!got_v)
			continue;
		want = r < runs ? ref_values[r] : FILL_BITS(4);
		if (r < runs ? !same_value(vt, c->op, got_v[r], want) : got_v[r] != want)
			fail_at(c, r, r < runs ? "aggregate" : "aggregate past the runs", got_v[r], want);
	}
	free(got_k);
	free(got_v);
	free(keys);
	free(values);
	free(ref_keys);
	free(ref_values);
	clReleaseMemObject(kb);
	clReleaseMemObject(uo);
	clReleaseMemObject(nb);
	if (vb)
		clReleaseMemObject(vb);
	if (ao)
		clReleaseMemObject(ao);
}

/* ------------------------------------------------------------ sort */

static void
stress_sort(clwarp_engine *e, const struct call *c, uint64_t *rs)
{
	static const enum pattern patterns[] = { PATTERN_RANDOM, PATTERN_RANDOM, PATTERN_FEW,
						 PATTERN_SORTED, PATTERN_REVERSE, PATTERN_SPECIAL };
	size_t n = c->n;
	bool pairs = c->algo == ALG_SORT_PAIRS;
	enum pattern p = patterns[next_random(rs) % 6];
	uint32_t *keys = malloc(n * 4 + 8), *values = malloc(n * 4 + 8), *got_k, *got_v = NULL;
	struct ref_item *ref = malloc(n * sizeof(*ref) + 8);
	cl_mem kb, vb = NULL;

	ck_assert(keys && values && ref);
	if (p == PATTERN_SPECIAL && c->type != CLWARP_TYPE_FLOAT)
		p = PATTERN_FEW;
	for (size_t i = 0; i < n; i++) {
		keys[i] = (uint32_t)pattern_key(c->type, p, i, n, rs);
		values[i] = (uint32_t)value_of_index(4, i);
		ref[i].bits = keys[i];
		ref[i].index = i;
	}
	kb = device_copy(e, keys, n * 4);
	if (pairs) {
		vb = device_copy(e, values, n * 4);
		ck_assert_clwarp_ok(clwarp_sort_pairs(e, c->type, CLWARP_TYPE_UINT, kb, vb, n,
						      c->flags, NULL));
	} else {
		ck_assert_clwarp_ok(clwarp_sort_keys(e, c->type, kb, n, c->flags, NULL));
	}
	ref_order(c->type, (c->flags & CLWARP_SORT_DESCENDING) != 0, c->flags);
	qsort(ref, n, sizeof(*ref), ref_compare);
	got_k = device_read(e, kb, n * 4);
	if (pairs)
		got_v = device_read(e, vb, n * 4);
	for (size_t i = 0; i < n; i++) {
		if (got_k[i] != (uint32_t)ref[i].bits)
			fail_at(c, i, "key", got_k[i], ref[i].bits);
		if (pairs && got_v[i] != (uint32_t)value_of_index(4, ref[i].index))
			fail_at(c, i, "value", got_v[i], value_of_index(4, ref[i].index));
	}
	free(got_k);
	free(got_v);
	free(keys);
	free(values);
	free(ref);
	clReleaseMemObject(kb);
	if (vb)
		clReleaseMemObject(vb);
}

/* ------------------------------------------------------------ the calls */

/*
 * The size classes, by the call's index: half single-tile (1-2000: below
 * the smallest tile of any algorithm), then a few tiles (up to 60000),
 * a few hundred thousand, and one call in 16 from max_n - max_n / 16 to
 * max_n (hundreds of tiles; sorts at half that, for the host's qsort).
 */
static size_t
call_size(unsigned index, enum algo algo, size_t max_n, uint64_t *rs)
{
	uint64_t r = next_random(rs);
	size_t lo, hi;

	switch (index % 16) {
	case 15: lo = max_n - max_n / 16; hi = max_n; break;
	case 3:
	case 11: lo = 60000; hi = max_n / 8; break;
	case 1:
	case 5:
	case 7:
	case 9:
	case 13: lo = 2001; hi = 60000; break;
	default: lo = 1; hi = 2000; break;
	}
	if (algo == ALG_SORT_KEYS || algo == ALG_SORT_PAIRS) {
		lo /= index % 16 == 15 ? 2 : 1;
		hi /= index % 16 == 15 ? 2 : 1;
	}
	if (hi > max_n)
		hi = max_n;
	if (lo > hi)
		lo = hi;
	return lo + (size_t)(r % (hi - lo + 1));
}

static void
stress_call(clwarp_engine *e, struct call *c, size_t max_n)
{
	uint64_t rs = c->call_seed;

	c->algo = (enum algo)(next_random(&rs) % ALG_COUNT);
	c->type = stress_types[next_random(&rs) % 3];
	c->value_type = stress_types[next_random(&rs) % 3];
	c->op = CLWARP_OP_ADD;
	c->flags = 0;
	c->n = call_size(c->index, c->algo, max_n, &rs);
	if ((c->only_algo && strcmp(c->only_algo, algo_names[c->algo]) != 0) ||
	    (c->only_type && strcmp(c->only_type, type_names[c->type]) != 0)) {
		c->skipped++;
		return;
	}
	rng_state = c->call_seed | 1;
	switch (c->algo) {
	case ALG_COMPACT:
	case ALG_PARTITION:
	case ALG_PARTITION_REVERSED:
		stress_select(e, c, &rs);
		break;
	case ALG_SCAN_INCLUSIVE:
	case ALG_SCAN_EXCLUSIVE:
		/* add for every type; max on floats, min on ints now and then. */
		if (next_random(&rs) % 4 == 0)
			c->op = c->type == CLWARP_TYPE_FLOAT ? CLWARP_OP_MAX : CLWARP_OP_MIN;
		stress_scan(e, c);
		break;
	case ALG_RBK:
		c->op = (clwarp_op)(next_random(&rs) % 3);
		/* fall through */
	case ALG_UNIQUE:
	case ALG_RLE:
		stress_runs(e, c, &rs);
		break;
	default:
		c->flags = next_random(&rs) % 2 ? CLWARP_SORT_DESCENDING : 0;
		stress_sort(e, c, &rs);
		break;
	}
	c->passed[c->algo]++;
	c->largest = c->n > c->largest ? c->n : c->largest;
	c->large += c->n >= (1u << 20);
}

START_TEST(test_lookback_stress)
{
	/* CLWARP_TEST_QUICK (CI's sanitizer, PoCL 6.0 and rusticl runs): fewer
	 * and smaller calls, every algorithm and type still. */
	const char *q = test_quick_env();
	bool quick_run = q && *q && strcmp(q, "0") != 0;
	unsigned calls = (unsigned)env_number("CLWARP_STRESS_CALLS", quick_run ? 48 : 128);
	unsigned first = (unsigned)env_number("CLWARP_STRESS_FIRST", 0);
	size_t max_n = (size_t)env_number("CLWARP_STRESS_MAX_N", quick_run ? 300000 : 4500000);
	struct call c = { 0 };
	clwarp_engine *e;
	clwarp_backend backend;
	unsigned warp = 0;
	const char *tuning;
	time_t start = time(NULL);

	if (getenv("CLWARP_STRESS_NAPS") && strcmp(getenv("CLWARP_STRESS_NAPS"), "1") == 0)
		setenv("CLWARP_ALGO_TUNING",
		       "runs_wait=1150,runs_poll=76,select_wait=1150,select_poll=76,"
		       "partition_wait=1150,partition_poll=76,scan_wait=1150,scan_poll=76,"
		       "unique_wait=1150,unique_poll=76", 0);
	tuning = getenv("CLWARP_ALGO_TUNING");
	ck_assert_msg(max_n >= 1 && max_n < ((size_t)1 << 31), "CLWARP_STRESS_MAX_N: 1 to 2^31 - 1");
	c.seed = env_number("CLWARP_STRESS_SEED", 20261126);
	c.only_algo = getenv("CLWARP_STRESS_ALGO");
	c.only_type = getenv("CLWARP_STRESS_TYPE");
	e = algo_engine(CLWARP_BACKEND_AUTO, 0);
	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &warp));
	printf("lookback-stress: seed %" PRIu64 ", calls %u to %u, max n %zu, device %s, backend %d, warp %u, CLWARP_ALGO_TUNING=%s\n",
	       c.seed, first, calls ? calls - 1 : 0, max_n, clwarp_engine_device_info(e)->name,
	       (int)backend, warp, tuning ? tuning : "(unset)");
	fflush(stdout);
	for (unsigned k = first; k < calls; k++) {
		uint64_t s = c.seed ^ ((uint64_t)k * 0xd1b54a32d192ed03ull);

		c.index = k;
		c.call_seed = next_random(&s);
		stress_call(e, &c, max_n);
	}
	printf("lookback-stress: %u calls passed in %.0f s (%u skipped by CLWARP_STRESS_ALGO/TYPE; %u of n >= 2^20, largest %zu):",
	       calls > first ? calls - first - c.skipped : 0, difftime(time(NULL), start), c.skipped,
	       c.large, c.largest);
	for (int a = 0; a < ALG_COUNT; a++)
		printf(" %s %zu%s", algo_names[a], c.passed[a], a + 1 < ALG_COUNT ? "," : "\n");
	clwarp_engine_free(e);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s = test_suite_with_timeout("lookback-stress", &tc);

	read_test_levels();
	/* 10000 calls on a GPU take minutes; the test's own time is the limit
	 * meson sets. */
	tcase_set_timeout(tc, 3600);
	tcase_add_test(tc, test_lookback_stress);
	return test_main(s);
}
