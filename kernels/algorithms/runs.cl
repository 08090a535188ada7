/* libclwarp algorithms: run-length encode and reduce by key, one pass with
 * decoupled look-back over (head count, value) pairs, as CUB's
 * ReduceByKey does.
 *
 * Defines from the library, beyond common.cl's (T is the key type, VEC
 * fits the wider of key and value in 16 bytes):
 *   V, V_VEC              the value type and its VEC-wide vector type
 *   AS_V, AS_VB           reinterpretations between V and VB, its bits
 *   V_ID, V_OP(a, b)      the values' operation and an exact identity of it
 *                         (-0.0 for float sums, NaN for fmin/fmax)
 *   PAIR, PAIR_N          uint2 or ulong2 (heads, value bits); its count type
 *   HAS_VALUES            reduce by key; without it every value is 1u, so the
 *                         aggregates are the runs' lengths
 *
 * Element i has the pair (head_i, value_i), head_i = 1 where a run starts.
 * PAIR_OP is CUB's ReduceBySegmentOp: heads add up, values combine back
 * to the nearest head. Its exclusive scan at a head i is (the run index
 * of i, the aggregate of the run before it), so a head writes its key
 * and the previous run's aggregate; the last tile writes the last run's
 * aggregate and the number of runs. */

/* A pair from its halves. A uint2 is made as one ulong: from a vector
 * literal Oclgrind's compiler stores an undefined vector to local memory
 * first and its halves after it, which Oclgrind reports as an
 * uninitialized write. */
#if PAIR_BYTES == 8 && defined(__ENDIAN_LITTLE__)
#define PAIR_MAKE(x, y) as_uint2(upsample((uint)(y), (uint)(x)))
#elif PAIR_BYTES == 8
#define PAIR_MAKE(x, y) as_uint2(upsample((uint)(x), (uint)(y)))
#else
#define PAIR_MAKE(x, y) ((PAIR)((PAIR_N)(x), (PAIR_N)(y)))
#endif
#define PAIR_OF(count, v) PAIR_MAKE(count, AS_VB(v))
#define PAIR_ID PAIR_OF(0, (V)(V_ID))

/* The values are combined before the choice, so that the choice is a
 * select of two values: with min or max inside ?: it was a branch and a
 * phi, and PoCL 6.0 kept that phi once per work-group in some builds
 * where it lived across a barrier (docs/algorithms.md, "PoCL 5.0 and
 * 6.0"). */
CLWARP_INLINE PAIR pair_op(PAIR a, PAIR b)
{
	PAIR_N m = AS_VB(V_OP(AS_V(a.y), AS_V(b.y)));

	return PAIR_MAKE(a.x + b.x, b.x ? b.y : m);
}
#define PAIR_OP(a, b) pair_op(a, b)
/* The look-back folds a window whose lane 0 holds the nearest (latest)
 * tile, so its warp reduction combines in reverse lane order. */
#define PAIR_OP_REV(a, b) PAIR_OP(b, a)

CLWARP_DEFINE_WARP_OP(pair, PAIR, PAIR_OP, PAIR_ID)
CLWARP_DEFINE_WARP_OP(pair_rev, PAIR, PAIR_OP_REV, PAIR_ID)
/* Direct calls, so that the engine passes the warp context on local. */
#define PAIR_SCAN_EXCL(v) warp_scan_exclusive_pair(v)
#define PAIR_REDUCE_REV(v) warp_reduce_pair_rev(v)

/* Look-back values of 8 and 16 bytes, word by word (see DEFINE_SHARED_VALUE_32). */
CLWARP_OVERLOAD void value_store(volatile global uint2 *p, uint2 v)
{
	atomic_xchg((volatile global uint *)p, v.x);
	atomic_xchg((volatile global uint *)p + 1, v.y);
}

CLWARP_OVERLOAD uint2 value_load(volatile global uint2 *p)
{
	return (uint2)(atomic_or((volatile global uint *)p, 0u),
		       atomic_or((volatile global uint *)p + 1, 0u));
}

CLWARP_OVERLOAD void value_store(volatile global ulong2 *p, ulong2 v)
{
	value_store((volatile global uint2 *)p, as_uint2(v.x));
	value_store((volatile global uint2 *)p + 1, as_uint2(v.y));
}

CLWARP_OVERLOAD ulong2 value_load(volatile global ulong2 *p)
{
	return (ulong2)(as_ulong(value_load((volatile global uint2 *)p)),
			as_ulong(value_load((volatile global uint2 *)p + 1)));
}

DEFINE_TILE_SPLIT(PAIR)
DEFINE_BLOCK_SCAN(pair_block_scan, PAIR, PAIR_OP, PAIR_ID, PAIR_SCAN_EXCL, ITEMS_K, VEC)
DEFINE_LOOKBACK(pair_lookback, PAIR, PAIR_OP, PAIR_ID, PAIR_REDUCE_REV)
DEFINE_LOAD_TILE(load_tile, T, T_VEC)
#ifdef HAS_VALUES
DEFINE_LOAD_TILE(load_values, V, V_VEC)
#endif

/*
 * unique_out[r] = the first key of run r, aggregates_out[r] = its values
 * combined (the run's length without HAS_VALUES), num_runs[0] = the
 * number of runs. Padding past n is (0, V_ID), which changes nothing.
 */
__kernel void clwarp_runs(global const T *keys, global const V *values, global T *unique_out,
			  global V *aggregates_out, global uint *num_runs, ulong n, uint tiles,
			  uint epoch, volatile global uint *counter, volatile global ulong *words,
			  volatile global PAIR *slots)
{
	local PAIR sm[WARPS];
	local PAIR prefix_shared;
	local uint tile_shared;
	T key[ITEMS];
	PAIR a[ITEMS];

	uint tile = take_tile(counter, tiles, &tile_shared);
	ulong base = (ulong)tile * TILE;
	load_tile(keys, base, n, (T)0, key, CLWARP_WARP_ARG);
	/* Only this 32-bit mask and the arrays live across the barriers below
	 * (see ALGO_LANE() in common.cl). */
	uint heads = tile_heads(keys, base, n, key);
#ifdef HAS_VALUES
	V v[ITEMS];
	load_values(values, base, n, (V)(V_ID), v, CLWARP_WARP_ARG);
	for (uint i = 0; i < ITEMS; i++)
		a[i] = PAIR_OF((heads >> i) & 1u, v[i]);
#else
	for (uint k = 0; k < ITEMS_K; k++) {
		ulong o = base + tile_offset(k);
		for (uint c = 0; c < VEC; c++)
			a[k * VEC + c] = PAIR_OF((heads >> (k * VEC + c)) & 1u,
						 o + c < n ? 1u : 0u);
	}
#endif
	PAIR total = pair_block_scan(a, 0, sm, CLWARP_WARP_ARG);
	pair_lookback_announce(tile, total, epoch, words, slots);
	PAIR prefix = pair_lookback(tile, total, epoch, words, slots, &prefix_shared,
				    CLWARP_WARP_ARG);
	for (uint i = 0; i < ITEMS; i++) {
		if ((heads >> i) & 1u) {
			PAIR e = PAIR_OP(prefix, a[i]);
			unique_out[e.x] = key[i];
			if (e.x > 0)
				aggregates_out[e.x - 1] = AS_V(e.y);
		}
	}
	if (tile == tiles - 1 && get_local_id(0) == 0) {
		PAIR last = PAIR_OP(prefix, total);
		num_runs[0] = (uint)last.x;
		if (last.x > 0)
			aggregates_out[last.x - 1] = AS_V(last.y);
	}
}
