/* Device-wide algorithms: the element types, what differs by kind of
 * variant, its work-group shape and the defines its kernel file reads
 * beyond common.cl's. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include "error.h"
#include "util.h"

/* Every element type: its OpenCL C name, size, limits and bits type. */
const struct type_desc algo_types[ALGO_TYPE_COUNT] = {
	[CLWARP_TYPE_INT] = { "int", 4, "INT_MAX", "INT_MIN", false, true, "uint" },
	[CLWARP_TYPE_UINT] = { "uint", 4, "UINT_MAX", "0u", false, false, "uint" },
	[CLWARP_TYPE_LONG] = { "long", 8, "LONG_MAX", "LONG_MIN", false, true, "ulong" },
	[CLWARP_TYPE_ULONG] = { "ulong", 8, "ULONG_MAX", "0ul", false, false, "ulong" },
	[CLWARP_TYPE_FLOAT] = { "float", 4, "INFINITY", "-INFINITY", true, false, "uint" },
	[CLWARP_TYPE_DOUBLE] = { "double", 8, "(double)INFINITY", "-(double)INFINITY", true, false,
				 "ulong" },
	[CLWARP_TYPE_CHAR] = { "char", 1, "CHAR_MAX", "CHAR_MIN", false, true, "uchar" },
	[CLWARP_TYPE_UCHAR] = { "uchar", 1, "UCHAR_MAX", "(uchar)0", false, false, "uchar" },
	[CLWARP_TYPE_SHORT] = { "short", 2, "SHRT_MAX", "SHRT_MIN", false, true, "ushort" },
	[CLWARP_TYPE_USHORT] = { "ushort", 2, "USHRT_MAX", "(ushort)0", false, false, "ushort" },
};

const char *const algo_op_names[3] = { "add", "min", "max" };

/* The unsigned integer type of `size` bytes (1, 2, 4 or 8). */
static const char *
bits_of_size(size_t size)
{
	return size == 1 ? "uchar" : size == 2 ? "ushort" : size == 4 ? "uint" : "ulong";
}

/* The sort's key defines (sort.cl): the bits type and the kind of order.
 * Keys and values of 1 and 2 bytes load, stage and store as uchar and
 * ushort (byte-addressable stores are core since OpenCL 1.1). Floats in
 * IEEE totalOrder (v->inclusive) sort as their unsigned words. */
static void
sort_defines(const struct algo_variant *v, struct strbuf *out)
{
	const struct type_desc *t = &algo_types[v->type];
	const char *kb = t->bits, *key = v->inclusive ? kb : t->name;
	size_t stage = t->size;
	int order = v->inclusive ? 0 : t->is_float ? 2 : t->is_signed;

	strbuf_printf(out, "#define KEY_T %s\n#define KB %s\n#define KEY_BITS %zu\n"
			   "#define AS_KEY as_%s\n#define AS_KB as_%s\n#define KEY_ORDER %d\n"
			   "#define SORT_ITEMS %u\n",
		      key, kb, 8 * t->size, key, kb, order, v->vectors);
	if (v->inclusive)
		strbuf_puts(out, "#define SORT_FLOAT_WORDS 1\n");
	if (v->value_type >= 0) {
		size_t vsize = algo_types[v->value_type].size;

		strbuf_printf(out, "#define HAS_VALUES 1\n#define VB %s\n", bits_of_size(vsize));
		if (vsize > stage)
			stage = vsize;
	} else {
		strbuf_puts(out, "#define VB uint\n");
	}
	strbuf_printf(out, "#define STAGE_T %s\n", bits_of_size(stage));
	if (v->sort_wait_free)
		strbuf_puts(out, "#define SORT_WAIT_FREE 1\n");
}

/* Local memory of one clwarp_sort_pass work-group (sort.cl), with the
 * local backend's scratch. Pairs keep a byte per key of the tile, inside
 * the warps' digit counts where it fits. */
static size_t
sort_local_bytes(size_t wg, unsigned items, unsigned warp_size, size_t stage, bool pairs)
{
	size_t counts = 256 * (wg / warp_size) * 4, tile = wg * items;

	return counts + tile * stage + (pairs && tile > counts ? tile : 0) + 2 * 256 * 4 +
	       (wg / warp_size) * 4 + 4 + wg * 8;
}

/* Keys per work-item for keys alone of 1, 2 or 4 bytes: sort_items, or
 * by default 16, and on nv, where 4-byte keys get 64 registers
 * (algo_variants.c), 24 for int and uint keys and 20 for floats. On an
 * H100 at 2^24-2^28 (two interleaved rounds) that took uint keys
 * 0.95-1.00x the time of 16 without the cap, and float keys 0.95-0.98x
 * that of 16 with it; float keys with 22 or more lost up to 1.75x
 * (docs/design/sort-gpu.md; int keys, one
 * XOR more than uint's, were not timed). Floats in totalOrder move as
 * words and take 24: such passes took 0.97-1.00x the time at 24 that they
 * took at 20 from 2^26 on an H100 and an H200
 * (docs/design/sort-gpu.md). */
static unsigned
sort_keys_items(const struct algorithms *a, const struct backend_config *config,
		const struct algo_variant *v)
{
	if (a->tuning.sort_items)
		return a->tuning.sort_items;
	if (config->backend != CLWARP_BACKEND_NV || algo_types[v->type].size != 4)
		return 16;
	return algo_types[v->type].is_float && !v->inclusive ? 20 : 24;
}

/* The sort's work-group width: sort_wg for keys alone of 4 bytes or
 * less where the tuning sets it (sort.cl takes widths that divide 256 or
 * are wider, in whole warps), else 256 work-items (one per digit), not
 * above wg. A width the driver's query refuses on nv is verified before
 * use (algo_sort.c); one that fails that is not asked for again
 * (sort_wide_refused). */
static clwarp_status
sort_width(const clwarp_engine *engine, const struct algorithms *a,
	   const struct backend_config *config, const struct algo_variant *v, size_t *wg)
{
	size_t want = a->tuning.sort_wg;

	*wg = a->wg < 256 ? a->wg : 256;
	if (!want || v->value_type >= 0 || algo_types[v->type].size > 4 || a->sort_wide_refused)
		return CLWARP_OK;
	if (want % config->warp_size || (want < 256 && 256 % want))
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "CLWARP_ALGO_TUNING: sort_wg=%zu must divide 256 or be wider, in whole warps of %u on %s",
				 want, config->warp_size, engine->info.name);
	if (want <= engine->info.max_work_group_size)
		*wg = want;
	return CLWARP_OK;
}

/* The sort's work-group (sort_width) and tile: sort_keys_items keys
 * each (sort_pairs_items for 4-byte pairs, sort_wide_items where keys or
 * values take 8 bytes, halved), fewer where local memory is short: one at
 * a time above 16, else halved. */
static clwarp_status
sort_shape(const clwarp_engine *engine, const struct algorithms *a,
	   const struct backend_config *config, struct algo_variant *v)
{
	size_t stage = algo_types[v->type].size;
	size_t wg;
	bool pairs = v->value_type >= 0;
	unsigned items;
	clwarp_status status = sort_width(engine, a, config, v, &wg);

	if (status != CLWARP_OK)
		return status;
	if (pairs && algo_types[v->value_type].size > stage)
		stage = algo_types[v->value_type].size;
	items = stage == 8 ? a->tuning.sort_wide_items
	      : pairs ? a->tuning.sort_pairs_items : sort_keys_items(a, config, v);
	if (stage == 8)
		items /= 2;
	while (sort_local_bytes(wg, items, config->warp_size, stage, pairs) > engine->info.local_mem_size) {
		if (items > 16)
			items--;
		else if (items > 4)
			items /= 2;
		else if (wg / 2 >= config->warp_size && wg > 32)
			wg /= 2;
		else if (items > 1)
			items /= 2;
		else
			return set_error(CLWARP_ERROR_TOO_LARGE,
					 "sorting needs %zu bytes of local memory per work-group; %s has %llu",
					 sort_local_bytes(wg, items, config->warp_size, stage, pairs),
					 engine->info.name, (unsigned long long)engine->info.local_mem_size);
	}
	v->wg = wg;
	v->vectors = items;
	v->sort_wait_free = a->sort_wait_free;
	return CLWARP_OK;
}

/*
 * Run-length encode and reduce by key (runs.cl): the values' type, an
 * exact identity of their operation, and the look-back pair. Run-length
 * encoding sums uint ones. Values of 1 and 2 bytes travel zero-extended
 * in the pair's uint half; their sums are taken in the same-width
 * unsigned type, so that they wrap modulo 2^8 or 2^16 (two's complement
 * for char and short) with no out-of-range conversion to a signed type.
 */
static void
runs_defines(const struct algo_variant *v, unsigned vec, struct strbuf *out)
{
	clwarp_type vt = v->value_type >= 0 ? (clwarp_type)v->value_type : CLWARP_TYPE_UINT;
	const struct type_desc *t = &algo_types[vt];
	const char *bits = t->size == 8 ? "ulong" : "uint";
	const char *id, *fn = v->op == CLWARP_OP_MIN ? "min" : "max";
	bool narrow = t->size < 4;

	/* -0.0 + x is x for every x, +0.0 + -0.0 is not; fmin(NaN, x) is x. */
	if (v->op == CLWARP_OP_ADD)
		id = !t->is_float ? "0" : t->size == 8 ? "-0.0" : "-0.0f";
	else if (t->is_float)
		id = t->size == 8 ? "(double)NAN" : "NAN";
	else
		id = v->op == CLWARP_OP_MIN ? t->min_identity : t->max_identity;
	strbuf_printf(out, "#define V %s\n#define V_VEC %s%u\n", t->name, t->name, vec);
	if (narrow)
		strbuf_printf(out, "#define AS_V(b) as_%s((%s)(b))\n#define AS_VB(v) ((uint)as_%s(v))\n",
			      t->name, t->bits, t->bits);
	else
		strbuf_printf(out, "#define AS_V as_%s\n#define AS_VB as_%s\n", t->name, bits);
	strbuf_printf(out, "#define V_ID (%s)\n#define PAIR %s2\n#define PAIR_N %s\n#define PAIR_BYTES %zu\n",
		      id, bits, bits, 2 * (t->size < 4 ? 4 : t->size));
	if (v->op == CLWARP_OP_ADD && narrow)
		strbuf_printf(out, "#define V_OP(a, b) as_%s((%s)((%s)(a) + (%s)(b)))\n", t->name,
			      t->bits, t->bits, t->bits);
	else if (v->op == CLWARP_OP_ADD)
		strbuf_puts(out, "#define V_OP(a, b) ((a) + (b))\n");
	else
		strbuf_printf(out, "#define V_OP(a, b) %s%s((a), (b))\n", t->is_float ? "f" : "", fn);
	if (v->value_type >= 0)
		strbuf_puts(out, "#define HAS_VALUES 1\n");
}

static void
histogram_defines(const struct algo_variant *v, struct strbuf *out)
{
	const struct type_desc *t = &algo_types[v->type];
	const char *kb = t->bits;

	strbuf_printf(out, "#define KB %s\n#define AS_KB as_%s\n#define AS_T as_%s\n#define KEY_BITS %zu\n"
			   "#define HIST_FLOAT %d\n#define HIST_LOCAL_BINS %u\n",
		      kb, kb, t->name, 8 * t->size, t->is_float ? 1 : 0,
		      v->local_bins ? v->local_bins : 1u);
}

/* Elements per 16-byte vector: runs load keys and values in vectors of
 * the same length, so that fits the wider of the two. */
unsigned
algo_kind_vec(const struct algo_variant *v)
{
	size_t size = algo_types[v->type].size;

	if (v->kind == ALGO_RUNS && v->value_type >= 0 && algo_types[v->value_type].size > size)
		size = algo_types[v->value_type].size;
	return (unsigned)(16 / size);
}

void
algo_kind_defines(const struct algo_variant *v, struct strbuf *out)
{
	switch (v->kind) {
	case ALGO_REDUCE:
		break;
	case ALGO_SCAN:
		strbuf_printf(out, "#define INCLUSIVE %d\n", v->inclusive ? 1 : 0);
		break;
	case ALGO_COMPACT:
	case ALGO_PARTITION:
	case ALGO_UNIQUE:
		strbuf_printf(out, "#define PRED_KIND %d\n",
			      v->kind == ALGO_COMPACT ? 1 : v->kind == ALGO_PARTITION ? 2 : 3);
		break;
	case ALGO_ROWS_REDUCE:
	case ALGO_ROWS_SCAN:
	case ALGO_SOFTMAX:
		strbuf_printf(out, "#define ROWS_KIND %d\n#define INCLUSIVE %d\n#define SEG_STEPS %u\n",
			      v->kind == ALGO_ROWS_REDUCE ? 1 : v->kind == ALGO_ROWS_SCAN ? 2 : 3,
			      v->inclusive ? 1 : 0, ROWS_SEG_STEPS);
		break;
	case ALGO_SORT:
		sort_defines(v, out);
		break;
	case ALGO_RUNS:
		runs_defines(v, algo_kind_vec(v), out);
		break;
	case ALGO_HISTOGRAM:
		histogram_defines(v, out);
		break;
	}
}

/*
 * The histogram counts in local memory up to histogram_bins bins (4096,
 * 16 KiB), fewer where the device's local memory, less the local backend's
 * scratch, is smaller.
 */
static void
histogram_shape(const clwarp_engine *engine, const struct algorithms *a, struct algo_variant *v)
{
	size_t scratch = v->wg * 8 + 64 + 256;
	size_t fit = engine->info.local_mem_size > scratch ?
		     (size_t)(engine->info.local_mem_size - scratch) / 4 : 0;

	v->local_bins = a->tuning.histogram_bins < fit ? a->tuning.histogram_bins : (unsigned)fit;
}

/* runs.cl stages a tile in local memory, an element's room being the
 * wider of key and value (of key and uint lengths for run-length
 * encoding), one in 32 more for padding, beside the local backend's
 * scratch and a few pairs: fewer vectors where it does not fit. */
static void
runs_fit(const clwarp_engine *engine, struct algo_variant *v)
{
	size_t size = algo_types[v->type].size;
	size_t vsize = v->value_type >= 0 ? algo_types[v->value_type].size : 4;
	size_t room = (size > vsize ? size : vsize) * algo_kind_vec(v);

	while (v->vectors > 1 && v->wg * v->vectors * room * 33 / 32 + v->wg * 8 + 1024 >
					 engine->info.local_mem_size)
		v->vectors--;
}

/*
 * Vectors per work-item in a tile: the tuning's count is made for 4-byte
 * elements (4 per vector) and, unchanged, for 8-byte ones. 1- and 2-byte
 * elements come 16 and 8 to a vector, so they take proportionally fewer
 * vectors (at least one): a work-item keeps about as many elements as
 * with 4-byte ones, and the per-element bit masks of scan.cl and runs.cl
 * (32 bits) still hold a work-item's elements.
 */
static unsigned
tile_vectors(const struct algo_variant *v, unsigned vectors)
{
	unsigned vec = algo_kind_vec(v);

	if (vec <= 4)
		return vectors;
	vectors = vectors * 4 / vec;
	return vectors ? vectors : 1;
}

/* The one-work-group kernels: small_wg x small_vectors, a compaction's
 * staged tile (and the local backend's scratch) within local memory. */
static void
small_shape(const clwarp_engine *engine, const struct algorithms *a,
	    const struct backend_config *config, struct algo_variant *v)
{
	v->wg = a->tuning.small_wg;
	v->vectors = tile_vectors(v, a->tuning.small_vectors);
	if (v->kind == ALGO_SCAN || v->kind == ALGO_REDUCE)
		return;
	while (v->wg * v->vectors * 16 + v->wg * 8 + 1024 > engine->info.local_mem_size) {
		if (v->vectors > 1)
			v->vectors--;
		else if (v->wg / 2 >= config->warp_size)
			v->wg /= 2;
		else
			break;
	}
}

clwarp_status
algo_kind_shape(const clwarp_engine *engine, const struct algorithms *a,
		const struct backend_config *config, struct algo_variant *v)
{
	if (v->small) {
		small_shape(engine, a, config, v);
		return CLWARP_OK;
	}
	switch (v->kind) {
	case ALGO_SORT:
		return sort_shape(engine, a, config, v);
	case ALGO_SCAN:
		v->wg = a->tuning.scan_wg;
		v->vectors = tile_vectors(v, a->tuning.scan_vectors);
		break;
	case ALGO_RUNS:
		v->wg = a->tuning.runs_wg;
		v->vectors = tile_vectors(v, a->tuning.runs_vectors);
		runs_fit(engine, v);
		break;
	case ALGO_COMPACT:
	case ALGO_PARTITION:
		v->wg = a->tuning.select_wg;
		v->vectors = tile_vectors(v, a->tuning.select_vectors);
		break;
	case ALGO_UNIQUE:
		v->wg = a->tuning.select_wg;
		v->vectors = tile_vectors(v, a->tuning.unique_vectors);
		break;
	case ALGO_HISTOGRAM:
		v->wg = a->tuning.histogram_wg;
		v->vectors = tile_vectors(v, a->tuning.histogram_vectors);
		histogram_shape(engine, a, v);
		break;
	default:
		v->wg = a->wg;
		v->vectors = 1;  /* unused */
		break;
	}
	return CLWARP_OK;
}
