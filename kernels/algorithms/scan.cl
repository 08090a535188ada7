/* libclwarp algorithms: single-pass scan and stream compaction with
 * decoupled look-back (see common.cl). Defines from the library, beyond
 * common.cl's: INCLUSIVE (scan), PRED_KIND 1 = compact, 2 = partition
 * with clwarp_pred(x) the user's predicate, 3 = unique: the heads of runs
 * of equal keys (select); ALGO_SMALL for the one-work-group kernels
 * (*_small), which walk the tiles in order with a running carry instead
 * of the look-back, and take the place of the others in that build. */

DEFINE_LOAD_TILE(load_tile, T, T_VEC)

#ifdef INCLUSIVE
DEFINE_BLOCK_SCAN(block_scan, T, OP, ID, WARP_SCAN_EXCL, ITEMS_K, VEC)
DEFINE_LOOKBACK(lookback, T, OP, ID, WARP_REDUCE)

/* Tile `base` of the scan, with `prefix` before it, to out. */
CLWARP_INLINE void scan_store(global T *out, ulong base, ulong n, const T *a, T prefix)
{
	if (base + TILE <= n) {
		global T_VEC *v = (global T_VEC *)(out + base);
		for (uint k = 0; k < ITEMS_K; k++) {
			T r[VEC];
			for (uint c = 0; c < VEC; c++)
				r[c] = OP(prefix, a[k * VEC + c]);
			v[tile_offset(k) / VEC] = VEC_JOIN(r);
		}
	} else {
		for (uint k = 0; k < ITEMS_K; k++) {
			ulong o = base + tile_offset(k);
			for (uint c = 0; c < VEC; c++) {
				if (o + c < n)
					out[o + c] = OP(prefix, a[k * VEC + c]);
			}
		}
	}
}

#ifndef ALGO_SMALL
/* `carry` comes before in[0], as if it were in[-1]: a device group's scan
 * passes the slices before this one (src/group_algo.c); one device passes
 * a carry that changes nothing (src/algorithms.c, neutral_carry). Tile 0
 * publishes carry OP its aggregate as its inclusive prefix. */
__kernel void clwarp_scan(global const T *in, global T *out, ulong n, uint tiles, uint epoch,
			  volatile global uint *counter, volatile global ulong *words,
			  volatile global T *slots, T carry)
{
	local T sm[WARPS];
	local T prefix_shared;
	local uint tile_shared;
	T a[ITEMS];

	uint tile = take_tile(counter, tiles, &tile_shared);
	ulong base = (ulong)tile * TILE;
	load_tile(in, base, n, (T)(ID), a, CLWARP_WARP_ARG);
	T aggregate = block_scan(a, INCLUSIVE, sm, CLWARP_WARP_ARG);
	if (tile == 0)
		aggregate = OP(carry, aggregate);
	lookback_announce(tile, aggregate, epoch, words, slots);
	T prefix = lookback(tile, aggregate, epoch, words, slots, &prefix_shared, CLWARP_WARP_ARG);
	if (tile == 0)
		prefix = carry;
	scan_store(out, base, n, a, prefix);
}
#else
/* Small n: one work-group scans tile after tile, `carry` (as above) the
 * running prefix; the next tile's loads are in flight during this one's
 * block scan. No atomics, no look-back, one launch. */
__kernel void clwarp_scan_small(global const T *in, global T *out, ulong n, T carry)
{
	local T sm[WARPS];
	T a[ITEMS], next[ITEMS];

	load_tile(in, 0, n, (T)(ID), a, CLWARP_WARP_ARG);
	for (ulong base = 0; base < n; base += TILE) {
		if (base + TILE < n)
			load_tile(in, base + TILE, n, (T)(ID), next, CLWARP_WARP_ARG);
		T aggregate = block_scan(a, INCLUSIVE, sm, CLWARP_WARP_ARG);
		scan_store(out, base, n, a, carry);
		carry = OP(carry, aggregate);
		for (uint i = 0; i < ITEMS; i++)
			a[i] = next[i];
	}
}
#endif
#endif

#ifdef PRED_KIND
#define COUNT_ADD(a, b) ((a) + (b))
DEFINE_LOOKBACK(lookback_count, uint, COUNT_ADD, 0u, warp_reduce_add)

/* The bits of `selected` before element (k, c) in vector k. */
#define VEC_BITS_BEFORE(k, c) ((((1u << (c)) - 1u)) << ((k) * VEC))

/*
 * The block scan of the selection flags without a rank per element:
 * chunk[k] becomes the number of selected elements of the tile before this
 * work-item's vector k, so element (k, c) has rank chunk[k] plus the
 * selected bits before it in that vector. Each warp scans its lanes'
 * counts per vector k, then the warp totals are combined in local memory,
 * as block_scan does (common.cl); the result is the tile's count. Against
 * a block scan of one flag per element (an array of ITEMS ranks) this
 * takes the compaction kernel on the H100 from 92 registers to 80, so
 * three work-groups of 256 fit on an SM instead of two; that alone did not
 * change its speed, but with the look-back naps (common.cl, ALGO_NAP) the
 * partition kernel (128 registers, then 126) was 1.07-1.13x as fast as
 * with the array at 2^25-2^28 floats (seven of eight points; one 0.99).
 */
CLWARP_INLINE uint block_count_chunks(uint selected, uint *chunk, local uint *sm,
				      CLWARP_WARP_PARAM)
{
	uint carry = 0;

	for (uint k = 0; k < ITEMS_K; k++) {
		uint s = popcount((selected >> (k * VEC)) & ((1u << VEC) - 1u));
		uint ex = warp_scan_exclusive_add(s);
		uint tot = warp_broadcast(ex + s, CLWARP_WARP_SIZE - 1u);
		chunk[k] = carry + ex;
		carry += tot;
	}
	if (ALGO_LANE() == 0)
		sm[ALGO_WARP()] = carry;
	barrier(CLK_LOCAL_MEM_FENCE);
	uint before = 0, total = 0;
	uint wid = ALGO_WARP();
	/* Unrolled, as in DEFINE_BLOCK_SCAN (common.cl): PoCL 6.0. */
	#pragma unroll
	for (uint w = 0; w < WARPS; w++) {
		uint v = sm[w];
		before += w < wid ? v : 0u;
		total += v;
	}
	#pragma unroll
	for (uint k = 0; k < ITEMS_K; k++)
		chunk[k] += before;
	barrier(CLK_LOCAL_MEM_FENCE);
	return total;
}

/*
 * The selection of a tile loaded by load_tile: bit k * VEC + c of the
 * result is set where element (k, c) is selected, of *in_range where it
 * lies below n. Compaction and partition test their elements against n
 * in the last tile only, and call the predicate on those below n alone:
 * skipping the test on whole tiles made both 1.19-1.29x as fast at 2^28
 * on the H200 (docs/design/select.md). Unique keeps its loop as it
 * was: skipping the test in tile_heads, or taking its mask from
 * tile_valid_bits, made it 4-9 % slower at 2^26-2^28 there.
 */
CLWARP_INLINE uint select_flags(global const T *in, ulong base, ulong n, const T *a,
				uint *in_range)
{
#if PRED_KIND == 3
	uint selected = 0, valid_bits = 0;
	uint heads = tile_heads(in, base, n, a);

	for (uint k = 0; k < ITEMS_K; k++) {
		ulong o = base + tile_offset(k);
		for (uint c = 0; c < VEC; c++) {
			uint valid = o + c < n;
			uint s = (heads >> (k * VEC + c)) & 1u;
			selected |= s << (k * VEC + c);
			valid_bits |= valid << (k * VEC + c);
		}
	}
	*in_range = valid_bits;
	return selected;
#else
	const bool whole = base + TILE <= n;
	uint selected = 0;

	/* Unrolled: PoCL 5.0 and 6.0 miscompile loops in both branches of a
	 * tile-wide condition (docs/algorithms.md, "Kernels PoCL compiles right"). */
	*in_range = whole ? 0xffffffffu >> (32 - ITEMS) : tile_valid_bits(base, n);
	if (whole) {
		_Pragma("unroll")
		for (uint i = 0; i < ITEMS; i++)
			selected |= (uint)(clwarp_pred(a[i]) != 0) << i;
	} else {
		_Pragma("unroll")
		for (uint i = 0; i < ITEMS; i++)
			selected |= (uint)(((*in_range >> i) & 1u) && clwarp_pred(a[i])) << i;
	}
	return selected;
#endif
}

/* Stage a ranked tile in local memory: the selected elements in order,
 * for partition the rejected ones after them. `first` is this
 * work-item's first element in the tile (tile_offset(0)), taken before
 * the ranking's barriers (see clwarp_select). */
CLWARP_INLINE void select_stage(local T *stage, const T *a, uint selected, uint in_range,
				const uint *chunk, uint first, uint tile_count)
{
	for (uint i = 0; i < ITEMS; i++) {
		uint pos = first + (i / VEC) * (CLWARP_WARP_SIZE * VEC) + i % VEC;
		uint r = chunk[i / VEC] + popcount(selected & VEC_BITS_BEFORE(i / VEC, i % VEC));
		if ((selected >> i) & 1u)
			stage[r] = a[i];
#if PRED_KIND == 2
		else if ((in_range >> i) & 1u)
			stage[tile_count + pos - r] = a[i];
#endif
	}
}

/* A staged tile to out, `before` elements selected before it: coalesced
 * stores; partition's rejected elements from the end of `out` backwards. */
CLWARP_INLINE void select_store(global T *out, local const T *stage, ulong n, ulong base,
				uint before, uint tile_count)
{
	for (uint i = get_local_id(0); i < tile_count; i += WG)
		out[before + i] = stage[i];
#if PRED_KIND == 2
	ulong valid = n - base < TILE ? n - base : TILE;
	ulong rejected_before = base - before;
	for (uint i = tile_count + get_local_id(0); i < valid; i += WG)
		out[n - 1 - (rejected_before + (i - tile_count))] = stage[i];
#endif
}

#ifndef ALGO_SMALL
/*
 * Compaction, partition and unique. Each tile counts its selected elements,
 * ranks them with a block scan, and stages them in local memory in
 * order (the rejected ones after them, for partition); the look-back over
 * the counts gives the tile's output position, and the staged elements
 * go out with coalesced stores. Partition writes the rejected elements
 * from the end of `out` backwards (rejected element r at n - 1 - r), CUB's
 * order, where CLWARP_PARTITION_REVERSED leaves them; otherwise
 * clwarp_reverse_tail then puts them in order.
 */
__kernel void clwarp_select(global const T *in, global T *out, global uint *count, ulong n,
			    uint tiles, uint epoch, volatile global uint *counter,
			    volatile global ulong *words, volatile global uint *slots)
{
	local T stage[TILE];
	local uint sm[WARPS];
	local uint prefix_shared;
	local uint tile_shared;
	T a[ITEMS];
	uint chunk[ITEMS_K];
	uint in_range;

	uint tile = take_tile(counter, tiles, &tile_shared);
	ulong base = (ulong)tile * TILE;
	/* This work-item's first element in the tile; element (k, c) is at
	 * first + k * W * VEC + c. Everything per work-item that the staging
	 * below needs after the block scan's barriers is a 32-bit value or a
	 * bit mask computed here: no 64-bit offset is recomputed after a
	 * barrier (see ALGO_LANE() in common.cl for the PoCL 6.0 miscompile
	 * that lost such a value). */
	uint first = (uint)tile_offset(0);
	load_tile(in, base, n, (T)0, a, CLWARP_WARP_ARG);
	uint selected = select_flags(in, base, n, a, &in_range);
	uint tile_count = block_count_chunks(selected, chunk, sm, CLWARP_WARP_ARG);
	lookback_count_announce(tile, tile_count, epoch, words, slots);
	select_stage(stage, a, selected, in_range, chunk, first, tile_count);
	uint before = lookback_count(tile, tile_count, epoch, words, slots, &prefix_shared,
				     CLWARP_WARP_ARG);
	/* lookback_count ends with a barrier: the stage is complete. */
	select_store(out, stage, n, base, before, tile_count);
	if (tile == tiles - 1 && get_local_id(0) == 0)
		count[0] = before + tile_count;
}

/* Partition, second step: reverse out[count[0] .. n). */
__kernel void clwarp_reverse_tail(global T *out, global const uint *count, ulong n)
{
	ulong start = count[0];
	ulong swaps = (n - start) / 2;
	ulong i = get_global_id(0);
	if (i < swaps) {
		T x = out[start + i];
		out[start + i] = out[n - 1 - i];
		out[n - 1 - i] = x;
	}
}
#else
/* Small n: one work-group selects tile after tile, the count so far
 * giving each tile's place, as the scan above; the next tile's loads are
 * in flight during this one's ranking. With `reverse` (clwarp_partition)
 * it then puts the rejected elements in order itself: one launch. */
__kernel void clwarp_select_small(global const T *in, global T *out, global uint *count, ulong n,
				  uint reverse)
{
	local T stage[TILE];
	local uint sm[WARPS];
	T a[ITEMS], next[ITEMS];
	uint chunk[ITEMS_K];
	uint in_range, before = 0;
	uint first = (uint)tile_offset(0);

	load_tile(in, 0, n, (T)0, a, CLWARP_WARP_ARG);
	for (ulong base = 0; base < n; base += TILE) {
		if (base + TILE < n)
			load_tile(in, base + TILE, n, (T)0, next, CLWARP_WARP_ARG);
		uint selected = select_flags(in, base, n, a, &in_range);
		/* Its barriers also keep this stage from the last tile's stores. */
		uint tile_count = block_count_chunks(selected, chunk, sm, CLWARP_WARP_ARG);
		select_stage(stage, a, selected, in_range, chunk, first, tile_count);
		barrier(CLK_LOCAL_MEM_FENCE);
		select_store(out, stage, n, base, before, tile_count);
		before += tile_count;
		for (uint i = 0; i < ITEMS; i++)
			a[i] = next[i];
	}
	if (get_local_id(0) == 0)
		count[0] = before;
#if PRED_KIND == 2
	/* This work-group's own stores: a global fence at the barrier makes
	 * them visible to its other work-items. */
	if (reverse) {
		barrier(CLK_GLOBAL_MEM_FENCE);
		ulong swaps = (n - before) / 2;
		for (ulong i = get_local_id(0); i < swaps; i += WG) {
			T x = out[before + i];
			out[before + i] = out[n - 1 - i];
			out[n - 1 - i] = x;
		}
	}
#endif
}
#endif
#endif
