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
 * aggregate and the number of runs.
 *
 * The shape is CUB's: the tile is loaded striped (coalesced vectors) and
 * turned blocked through local memory, so that each work-item holds ITEMS
 * consecutive keys. It folds them alone, so one warp scan per work-item
 * (not one per vector) and a block scan of the warp totals give every
 * work-item its exclusive pair; the runs each warp finds are gathered in
 * its part of local memory and written out in order, so the stores stay
 * coalesced however short the runs are.
 */

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
 * where it lived across a barrier (docs/algorithms.md, "Kernels PoCL
 * compiles right"). */
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

#if PAIR_BYTES == 8 && defined(ALGO_WORD64) && !defined(CLWARP_ALGO_SPLIT_LOOKBACK)
/*
 * 8-byte pairs without fences: each half travels in its own 64-bit word
 * (words 2 * tile and 2 * tile + 1) under the state in the word's high
 * half, so each word says which publication it belongs to. A tile
 * publishes at most one aggregate and one prefix per call, so two words
 * with the same state hold one pair; a reader that catches them apart
 * (the prefix's first half beside the aggregate's second) reads again.
 * The split form's value store, global fence, state store and the
 * reader's fence and loads made the look-back 0.4 ms of 1.3 ms at 2^28
 * keys on the H100 (docs/design/hist-rle.md).
 */
CLWARP_OVERLOAD void tile_publish(volatile global ulong *words, volatile global PAIR *slots,
				  uint tile, uint state, PAIR v)
{
	word_store(&words[2 * tile], (ulong)state << 32 | v.x);
	word_store(&words[2 * tile + 1], (ulong)state << 32 | v.y);
}

CLWARP_OVERLOAD uint tile_wait(volatile global ulong *words, volatile global PAIR *slots,
			       uint tile, uint fa, uint fp, PAIR *v)
{
	ulong a, b;
	uint state;

	do {
		a = word_load(&words[2 * tile]);
		b = word_load(&words[2 * tile + 1]);
		/* States are never 0 (epochs start at 1). */
		state = (uint)(a >> 32) == (uint)(b >> 32) ? (uint)(a >> 32) : 0u;
		if (state != fa && state != fp)
			LOOKBACK_POLL_DELAY();
	} while (state != fa && state != fp);
	*v = PAIR_MAKE((uint)a, (uint)b);
	return state;
}
#else
DEFINE_TILE_SPLIT(PAIR)
#endif
DEFINE_LOOKBACK(pair_lookback, PAIR, PAIR_OP, PAIR_ID, PAIR_REDUCE_REV)

/*
 * Local memory: each warp owns STAGE_VECTORS 16-byte vectors, room for
 * W * ITEMS keys, values or aggregates (run-length encoding's uint lengths
 * are wider than 1- and 2-byte keys). Staged, row l (lane l's ITEMS
 * consecutive elements) is its first ITEMS_K vectors. Vector j of a row
 * sits at slot j ^ row (mod ITEMS_K, where that is a power of two), so
 * that neither the striped stores nor the row reads of 8 lanes at a time
 * (one 128-byte access) hit the same banks twice.
 */
#if (ITEMS_K & (ITEMS_K - 1)) == 0
#define STAGE_SLOT(row, j) ((row) * ITEMS_K + (((j) ^ (row)) & (ITEMS_K - 1)))
#else
#define STAGE_SLOT(row, j) ((row) * ITEMS_K + (j))
#endif
#define STAGE_SIZE (sizeof(T) > sizeof(V) ? sizeof(T) : sizeof(V))
#define STAGE_ITEMS (CLWARP_WARP_SIZE * ITEMS)
#define STAGE_VECTORS (((STAGE_ITEMS + STAGE_ITEMS / 32) * STAGE_SIZE + 15) / 16)
/* Gathered runs skip one element in 32: with short runs lane l's q-th run
 * is near l * ITEMS + q, and ITEMS = 32 put a warp's stores in one bank
 * (32 ways; 3.2 ms instead of 2.4 ms for 2^28 keys in runs of 1). */
#define GATHER_SLOT(q) ((q) + (q) / 32)
/* This warp's part, as elements of TY. */
#define WARP_STAGE(stage, TY) ((local TY *)((stage) + ALGO_WARP() * STAGE_VECTORS))

/* The warp's part of the tile into its part of local memory, blocked:
 * load instruction k of lane l reads vector k * W + l of the warp's
 * W * ITEMS_K, which is vector (k * W + l) % ITEMS_K of row
 * (k * W + l) / ITEMS_K. Partial tiles pad with `pad`. The loops are
 * unrolled for PoCL (see DEFINE_LOAD_TILE). Names made by the macro
 * take the warp context by hand (docs/warp-api.md, "Helper functions"). */
#define DEFINE_STAGE_TILE(NAME, TY, TY_VEC) \
	CLWARP_INLINE void NAME(global const TY *in, ulong base, ulong n, TY pad, \
				local uint4 *stage, CLWARP_WARP_PARAM) \
	{ \
		local TY_VEC *mine = WARP_STAGE(stage, TY_VEC); \
		if (base + TILE <= n) { \
			global const TY_VEC *v = (global const TY_VEC *)(in + base); \
			TY_VEC x[ITEMS_K]; \
			_Pragma("unroll") \
			for (uint k = 0; k < ITEMS_K; k++) \
				x[k] = v[tile_offset(k) / VEC]; \
			_Pragma("unroll") \
			for (uint k = 0; k < ITEMS_K; k++) { \
				uint s = k * CLWARP_WARP_SIZE + ALGO_LANE(); \
				mine[STAGE_SLOT(s / ITEMS_K, s % ITEMS_K)] = x[k]; \
			} \
		} else { \
			_Pragma("unroll") \
			for (uint k = 0; k < ITEMS_K; k++) { \
				ulong o = base + tile_offset(k); \
				uint s = k * CLWARP_WARP_SIZE + ALGO_LANE(); \
				local TY *e = (local TY *)&mine[STAGE_SLOT(s / ITEMS_K, s % ITEMS_K)]; \
				_Pragma("unroll") \
				for (uint c = 0; c < VEC; c++) \
					e[c] = o + c < n ? in[o + c] : pad; \
			} \
		} \
	} \
	CLWARP_INLINE void NAME##_row(local uint4 *stage, TY *a, CLWARP_WARP_PARAM) \
	{ \
		uint row = ALGO_LANE(); \
		local TY_VEC *mine = WARP_STAGE(stage, TY_VEC); \
		_Pragma("unroll") \
		for (uint j = 0; j < ITEMS_K; j++) { \
			TY_VEC x = mine[STAGE_SLOT(row, j)]; \
			VEC_SPLIT(a + j * VEC, x); \
		} \
	}
DEFINE_STAGE_TILE(stage_keys, T, T_VEC)
#ifdef HAS_VALUES
DEFINE_STAGE_TILE(stage_values, V, V_VEC)
#endif

/* Global index of this work-item's first element. */
CLWARP_INLINE ulong row_start(ulong base)
{
	return base + ((ulong)ALGO_WARP() * CLWARP_WARP_SIZE + ALGO_LANE()) * ITEMS;
}

/* The pair of element j of this work-item: its head bit and its value
 * (padding past n is (0, V_ID)). Run-length encoding folds its lengths
 * in closed form instead (see the kernel). */
#ifdef HAS_VALUES
#define ELEMENT_PAIR(j) PAIR_OF((heads >> (j)) & 1u, v[j])
#endif

/* Each warp's runs leave through its part of local memory, first the
 * keys, then the aggregates: `from` is the warp's first run index, `count`
 * its runs. Aggregate slot q is run from - 1 + q (a head writes the run
 * before it). */
CLWARP_INLINE void write_keys(global T *out, local T *part, ulong from, uint count)
{
	for (uint q = ALGO_LANE(); q < count; q += CLWARP_WARP_SIZE)
		out[from + q] = part[GATHER_SLOT(q)];
}

CLWARP_INLINE void write_aggregates(global V *out, local V *part, ulong from, uint count)
{
	for (uint q = ALGO_LANE(); q < count; q += CLWARP_WARP_SIZE)
		if (from + q > 0)
			out[from + q - 1] = part[GATHER_SLOT(q)];
}

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
	local uint4 stage[WARPS * STAGE_VECTORS];
	local PAIR sm[WARPS];
	local PAIR prefix_shared;
	local uint tile_shared;
	T key[ITEMS];
	/* The row's exclusive pair and its own, kept in an array across
	 * barriers (see DEFINE_BLOCK_SCAN). */
	PAIR ex[2];

	uint tile = take_tile(counter, tiles, &tile_shared);
	ulong base = (ulong)tile * TILE;
	ulong start = row_start(base);
	/* The key before lane 0's row (other lanes take the previous lane's
	 * last): on nv loaded before the tile, so that its latency hides
	 * behind the tile's. Elsewhere after it, as warp_barrier may be a
	 * work-group barrier, across which PoCL 6.0 sometimes kept a value
	 * once per work-group (see DEFINE_BLOCK_SCAN). */
	T before = (T)0;
#ifdef CLWARP_BACKEND_NV
	if (ALGO_LANE() == 0 && start > 0 && start < n)
		before = keys[start - 1];
#endif
#ifdef HAS_VALUES
	/* Values first: they stay in registers, the keys' pass reuses the space. */
	V v[ITEMS];
	stage_values(values, base, n, (V)(V_ID), stage, CLWARP_WARP_ARG);
	warp_barrier();
	stage_values_row(stage, v, CLWARP_WARP_ARG);
	warp_barrier();
#endif
	stage_keys(keys, base, n, (T)0, stage, CLWARP_WARP_ARG);
	warp_barrier();
	stage_keys_row(stage, key, CLWARP_WARP_ARG);
#ifndef CLWARP_BACKEND_NV
	start = row_start(base);
	if (ALGO_LANE() == 0 && start > 0 && start < n)
		before = keys[start - 1];
#endif

	/* Heads, as bits, masked to this row's elements inside n. */
	uint valid = start >= n ? 0u : n - start < ITEMS ? (uint)(n - start) : (uint)ITEMS;
	T up = warp_shuffle_up(key[ITEMS - 1], 1);
	before = ALGO_LANE() == 0 ? before : up;
	uint heads = start == 0 ? 1u : 0u;
	for (uint j = 0; j < ITEMS; j++) {
		T prev = j > 0 ? key[j - 1] : before;
		heads |= (uint)!keys_equal(key[j], prev) << j;
	}
	heads &= valid < 32u ? (1u << valid) - 1u : ~0u;

	/* The row's pair, one warp scan, then the warps' totals. */
#ifdef HAS_VALUES
	ex[1] = ELEMENT_PAIR(0);
	for (uint j = 1; j < ITEMS; j++)
		ex[1] = PAIR_OP(ex[1], ELEMENT_PAIR(j));
#else
	/* Every length is 1: the row folds to its head count and the
	 * elements from its last head on (all of them without a head). */
	ex[1] = PAIR_MAKE(popcount(heads), valid - (heads ? 31u - clz(heads) : 0u));
#endif
	ex[0] = warp_scan_exclusive_pair(ex[1]);
	PAIR warp_total = warp_broadcast(PAIR_OP(ex[0], ex[1]), CLWARP_WARP_SIZE - 1u);

	/* The warp's keys go to its part of local memory now: a head's slot
	 * is its run index within the warp, which needs no prefix, and the
	 * keys need no registers across the barriers and the look-back. */
	local T *kpart = WARP_STAGE(stage, T);
	local V *apart = WARP_STAGE(stage, V);
	warp_barrier();
	uint q = (uint)ex[0].x;
	for (uint j = 0; j < ITEMS; j++) {
		if ((heads >> j) & 1u)
			kpart[GATHER_SLOT(q)] = key[j];
		q += (heads >> j) & 1u;
	}

	/* Half by half: Oclgrind's compiler stored a ulong2 made from a
	 * vector literal as an undefined vector first (see PAIR_MAKE). */
	if (ALGO_LANE() == 0) {
		((local PAIR_N *)sm)[2 * ALGO_WARP()] = warp_total.x;
		((local PAIR_N *)sm)[2 * ALGO_WARP() + 1] = warp_total.y;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	PAIR earlier = PAIR_ID, total = PAIR_ID;
	uint wid = ALGO_WARP();
	for (uint w = 0; w < WARPS; w++) {
		PAIR x = sm[w];
		earlier = w < wid ? PAIR_OP(earlier, x) : earlier;
		total = PAIR_OP(total, x);
	}
	ex[0] = PAIR_OP(earlier, ex[0]);

	pair_lookback_announce(tile, total, epoch, words, slots);
	PAIR prefix = pair_lookback(tile, total, epoch, words, slots, &prefix_shared,
				    CLWARP_WARP_ARG);

	/* The warp's first run index and its count of runs, from the pairs
	 * (no other per-work-item value crosses the barriers; see
	 * DEFINE_BLOCK_SCAN). */
	PAIR run = PAIR_OP(prefix, ex[0]);
	ulong from = warp_broadcast(run.x, 0);
	uint count = (uint)(warp_broadcast(PAIR_OP(run, ex[1]).x, CLWARP_WARP_SIZE - 1u) - from);
	warp_barrier();
	write_keys(unique_out, kpart, from, count);
	warp_barrier();
	/* At each head, the aggregate of the run before it. The head bits
	 * afresh: with the look-back's naps compiled in, NVIDIA's compiler
	 * kept a test of one head bit from the loop above across the
	 * look-back, and run lengths came out wrong (docs/design/lookback.md). */
	heads = algo_opaque(heads);
	q = (uint)(run.x - from);
#ifdef HAS_VALUES
	PAIR r = run;
	for (uint j = 0; j < ITEMS; j++) {
		if ((heads >> j) & 1u)
			apart[GATHER_SLOT(q)] = AS_V(r.y);
		q += (heads >> j) & 1u;
		r = PAIR_OP(r, ELEMENT_PAIR(j));
	}
#else
	/* A run's length: the open run's at the row's start plus j, or j
	 * less the row's previous head. */
	uint c = (uint)run.y;
	for (uint j = 0; j < ITEMS; j++) {
		if ((heads >> j) & 1u) {
			apart[GATHER_SLOT(q)] = c + j;
			c = 0u - j;
		}
		q += (heads >> j) & 1u;
	}
#endif
	warp_barrier();
	write_aggregates(aggregates_out, apart, from, count);
	if (tile == tiles - 1 && get_local_id(0) == 0) {
		PAIR last = PAIR_OP(prefix, total);
		num_runs[0] = (uint)last.x;
		if (last.x > 0)
			aggregates_out[last.x - 1] = AS_V(last.y);
	}
}
