/* Kernels of tests/test-warp-sort.c: warp sort and exchange for
 * -DCW_T=<key/item type> -DCW_V=<value type of the pairs>. 1-D launches,
 * slot g = get_global_id(0), n = get_global_size(0). `width` is an argument,
 * so one build runs every width. The helpers take no warp parameter: the
 * engine's rewrite gives them the context on the local backend.
 *
 * keys_out[f * n + g], f = 0..7: warp_sort(k, w), warp_sort_descending(k, w),
 *   the keys of warp_sort_pairs(&k, &lane, w), _descending, then the same
 *   four without the width.
 * lanes_out[f * n + g], f = 0..3: the uint values (original lanes) of those
 *   four pairs sorts.
 * vals_out[f * n + g], f = 0..1: warp_sort_pairs(&k, &v, w) with v of
 *   type CW_V, ascending and descending.
 * ex_out: warp exchange for ITEMS = 1, 2, 3, 4, 7 (CW_EXCHANGE below). */

CW_T sort_helper(CW_T k, uint width) { return warp_sort(k, width); }

void pairs_helper(CW_T *k, uint *lane, uint width) { warp_sort_pairs(k, lane, width); }

/* Items of ITEMS m start at PRE * n in ex_in (PRE: 0, 1, 3, 6, 10; 17 in
 * all); ex_out holds five kinds of 17 n: blocked to striped, that back to
 * blocked, striped to blocked, and (for ITEMS 4 only) the two without a
 * width. */
#define CW_LOAD(M, PRE) \
	for (uint i = 0; i < (M); i++) \
		it[i] = ex_in[(PRE) * n + g * (M) + i];
#define CW_STORE(M, PRE, KIND) \
	for (uint i = 0; i < (M); i++) \
		ex_out[((KIND) * 17u + (PRE)) * n + g * (M) + i] = it[i];
#define CW_EXCHANGE(M, PRE) \
	{ \
		CW_T it[M]; \
		CW_LOAD(M, PRE) \
		warp_exchange_blocked_to_striped(it, M, width); \
		CW_STORE(M, PRE, 0u) \
		warp_exchange_striped_to_blocked(it, M, width); \
		CW_STORE(M, PRE, 1u) \
		CW_LOAD(M, PRE) \
		warp_exchange_striped_to_blocked(it, M, width); \
		CW_STORE(M, PRE, 2u) \
	}

/* Four kernels, one argument list: PoCL builds a kernel with many
 * local-backend barriers slowly, more than in proportion to their number. */
#define CW_PARAMS global const CW_T *keys, global const CW_V *vals, global const CW_T *ex_in, \
	uint width, global CW_T *keys_out, global uint *lanes_out, global CW_V *vals_out, \
	global CW_T *ex_out
#define CW_PROLOGUE \
	uint g = get_global_id(0); \
	uint n = get_global_size(0); \
	CW_T key = keys[g], k; \
	uint lane = warp_lane_id(), l;

kernel void sort_width(CW_PARAMS)
{
	CW_PROLOGUE
	keys_out[0 * n + g] = sort_helper(key, width);
	keys_out[1 * n + g] = warp_sort_descending(key, width);
	k = key;
	l = lane;
	pairs_helper(&k, &l, width);
	keys_out[2 * n + g] = k;
	lanes_out[0 * n + g] = l;
	k = key;
	l = lane;
	warp_sort_pairs_descending(&k, &l, width);
	keys_out[3 * n + g] = k;
	lanes_out[1 * n + g] = l;
}

kernel void sort_full(CW_PARAMS)
{
	CW_PROLOGUE
	keys_out[4 * n + g] = warp_sort(key);
	keys_out[5 * n + g] = warp_sort_descending(key);
	k = key;
	l = lane;
	warp_sort_pairs(&k, &l);
	keys_out[6 * n + g] = k;
	lanes_out[2 * n + g] = l;
	k = key;
	l = lane;
	warp_sort_pairs_descending(&k, &l);
	keys_out[7 * n + g] = k;
	lanes_out[3 * n + g] = l;
}

kernel void sort_values(CW_PARAMS)
{
	CW_PROLOGUE
	CW_V v;

	k = key;
	v = vals[g];
	warp_sort_pairs(&k, &v, width);
	vals_out[0 * n + g] = v;
	k = key;
	v = vals[g];
	warp_sort_pairs_descending(&k, &v, width);
	vals_out[1 * n + g] = v;
	(void)l;
	(void)lane;
}

kernel void exchange(CW_PARAMS)
{
	uint g = get_global_id(0);
	uint n = get_global_size(0);

	CW_EXCHANGE(1, 0u)
	CW_EXCHANGE(2, 1u)
	CW_EXCHANGE(3, 3u)
	CW_EXCHANGE(4, 6u)
	CW_EXCHANGE(7, 10u)
	{
		CW_T it[4];
		CW_LOAD(4, 6u)
		warp_exchange_blocked_to_striped(it, 4);
		CW_STORE(4, 6u, 3u)
		CW_LOAD(4, 6u)
		warp_exchange_striped_to_blocked(it, 4);
		CW_STORE(4, 6u, 4u)
	}
}
