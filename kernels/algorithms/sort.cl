/* libclwarp algorithms: stable LSD radix sort, one pass per 8-bit digit
 * with decoupled look-back (Onesweep: Adinets & Merrill, 2022).
 *
 * Defines from the library, beyond common.cl's:
 *   KEY_T, KB, KEY_BITS   the key type, its same-width unsigned type, its width
 *   AS_KEY, AS_KB         reinterpretations between the two
 *   KEY_ORDER             0 unsigned, 1 signed integer, 2 floating point
 *   SORT_FLOAT_WORDS      set: floats in IEEE totalOrder (CLWARP_SORT_TOTAL_ORDER),
 *                         sorted as unsigned words, their bits flipped (KEY_T
 *                         and KB: uint or ulong; KEY_ORDER 0)
 *   HAS_VALUES, VB        pairs: values move as this unsigned type
 *   STAGE_T               the local staging type (the wider of KB and VB)
 *   SORT_ITEMS            keys per work-item in a tile
 *
 *   SORT_WAIT_FREE        set: no work-group waits for another (CPU
 *                         devices; src/algo_kinds.c)
 *
 * A sort is clwarp_sort_histogram (the digit counts of every pass, in one
 * read of the keys), clwarp_sort_offsets (the counts to each digit's
 * first position, per pass) and one clwarp_sort_pass per digit. With
 * SORT_WAIT_FREE, each pass is clwarp_sort_count (every tile's digit
 * counts), clwarp_sort_scan_counts (each tile's first position of each
 * digit) and clwarp_sort_pass, which reads its positions instead of
 * looking back. */

#define RADIX 256u
#define SORT_TILE (WG * SORT_ITEMS)
#define SORT_WARPS (WG / CLWARP_WARP_SIZE)
#define KB_TOP ((KB)1 << (KEY_BITS - 1))
#define PASSES_MAX (KEY_BITS / 8)
/* `bins` holds counts for 8 passes, then offsets for 8 (whatever the key
 * width: one buffer serves every variant of an engine). */
#define OFFSETS_AT (8u * RADIX)
/* get_local_id(0) each time it is needed, never kept across a barrier:
 * see ALGO_LANE() in common.cl. */
#define LID ((uint)get_local_id(0))
/* Digits per work-item where a kernel takes them in blocks (the offsets,
 * step 1 and the look-back of a pass): work-item i takes digits
 * i * SORT_DIGITS_PER on. Work-groups wider than RADIX (384, CUB's sm_90
 * width for 4-byte keys) give the first RADIX work-items one digit each
 * and the rest none, and declare their width to the compiler. */
#if WG > RADIX
#define SORT_DIGITS_PER 1u
#define SORT_HAS_DIGIT() (LID < RADIX)
#define SORT_WG_ATTR __attribute__((reqd_work_group_size(WG, 1, 1)))
#elif RADIX % WG == 0
#define SORT_DIGITS_PER (RADIX / WG)
#define SORT_HAS_DIGIT() 1
#define SORT_WG_ATTR
#else
#error "sort.cl: WG must divide RADIX (256) or be wider"
#endif

/* The `mode` word of the histogram and the passes. */
#define SORT_DESCENDING 1u
#define SORT_IN_RAW 2u    /* SORT_FLOAT_WORDS: the keys read are floats, not words */
#define SORT_OUT_RAW 4u   /* SORT_FLOAT_WORDS: the keys written are floats */

/*
 * With SORT_FLOAT_WORDS the first pass flips each float's bits as it
 * loads them (sign bit set: every bit; else the sign bit), the last pass
 * flips them back as it stores them, and the passes between move and rank
 * plain unsigned words: IEEE 754's totalOrder, NaNs by sign and payload,
 * as CUB sorts floats. That took 0.92-0.99x the time of the NaN rule
 * below, whose test the passes pay at every use of a key, on an H100 and
 * an H200 (docs/design/sort-gpu.md).
 */
CLWARP_INLINE KEY_T sort_word(KEY_T key, uint mode)
{
#ifdef SORT_FLOAT_WORDS
	if (mode & SORT_IN_RAW)
		key ^= (KB)(-(KB)(key >> (KEY_BITS - 1))) | KB_TOP;
#endif
	return key;
}

CLWARP_INLINE KEY_T sort_unword(KEY_T key, uint mode)
{
#ifdef SORT_FLOAT_WORDS
	if (mode & SORT_OUT_RAW)
		key ^= (KB)(-(KB)((key >> (KEY_BITS - 1)) ^ (KB)1)) | KB_TOP;
#endif
	return key;
}

/*
 * The key as unsigned bits that sort in the wanted order: the sign bit
 * flipped for signed integers, IEEE total order for floats (-0.0 before
 * +0.0), every bit flipped for descending. NaNs sort last both ways, in
 * their original order.
 */
CLWARP_INLINE KB sort_order_bits(KEY_T key, uint mode)
{
	KB b = AS_KB(key);
#if KEY_ORDER == 2
	if (isnan(key))
		return ~(KB)0;
	b ^= (b & KB_TOP) ? ~(KB)0 : KB_TOP;
#elif KEY_ORDER == 1
	b ^= KB_TOP;
#endif
	return mode & SORT_DESCENDING ? ~b : b;
}

/* A key whose order bits are all ones (the highest digit in every pass):
 * it pads the last tile. */
CLWARP_INLINE KEY_T sort_pad_key(uint mode)
{
#if KEY_ORDER == 2
	return AS_KEY((KB)((KB)~(KB)0 >> 1));   /* a NaN: last both ways */
#elif KEY_ORDER == 1
	return AS_KEY((KB)(mode & SORT_DESCENDING ? KB_TOP : (KB)~KB_TOP));
#else
	return AS_KEY((KB)(mode & SORT_DESCENDING ? (KB)0 : (KB)~(KB)0));
#endif
}

CLWARP_INLINE uint sort_digit(KB bits, uint shift, uint mask)
{
	return (uint)(bits >> shift) & mask;
}

/*
 * The digit counts of every pass. Pass p covers bits [begin + 8p,
 * min(begin + 8p + 8, end)). Each work-group counts its stretch in local
 * memory and adds its counts to `bins` (PASSES_MAX x RADIX, zero between
 * sorts: clwarp_sort_offsets clears them).
 */
#define HIST_ITEMS 8
#define HIST_CHUNK (WG * HIST_ITEMS)
__kernel SORT_WG_ATTR void clwarp_sort_histogram(global const KEY_T *keys, ulong n, uint mode,
				    uint begin, uint end, volatile global uint *bins)
{
	local uint counts[PASSES_MAX * RADIX];
	uint passes = (end - begin + 7u) / 8u;

	for (uint i = LID; i < PASSES_MAX * RADIX; i += WG)
		counts[i] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	/* HIST_ITEMS loads in flight per work-item, then their counts: with
	 * one load at a time the kernel waited on memory (sorts of 2^28 keys
	 * on an H100: 0.95x the time with 8). */
	for (ulong c = (ulong)get_group_id(0) * HIST_CHUNK; c < n;
	     c += (ulong)get_num_groups(0) * HIST_CHUNK) {
		KEY_T k[HIST_ITEMS];
		for (uint j = 0; j < HIST_ITEMS; j++)
			k[j] = keys[min(c + j * WG + LID, n - 1)];
		for (uint j = 0; j < HIST_ITEMS; j++) {
			if (c + j * WG + LID >= n)
				break;
			KB bits = sort_order_bits(sort_word(k[j], mode | SORT_IN_RAW), mode);
			for (uint p = 0; p < PASSES_MAX; p++) {
				uint shift = begin + 8u * p;
				uint mask = (1u << min(8u, end - shift)) - 1u;
				if (p < passes)
					atomic_inc(&counts[p * RADIX + sort_digit(bits, shift, mask)]);
			}
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint i = LID; i < passes * RADIX; i += WG) {
		if (counts[i])
			atomic_add(&bins[i], counts[i]);
	}
}

/*
 * Ranking within a warp: the lanes holding the same digit, `below` of
 * them in lower lanes. On nv, one ballot per digit bit, as CUB's MatchAny
 * does (match.any.sync is several times slower there), in 32-bit masks
 * with %lanemask_lt. Elsewhere warp_match_any, which the local backend
 * does with one exchange instead of 8.
 */
#ifdef CLWARP_BACKEND_NV
#define SORT_MASK_T uint
CLWARP_INLINE uint sort_digit_peers(uint d, CLWARP_WARP_PARAM)
{
	uint peers = 0xffffffffu;
	for (uint b = 0; b < 8; b++) {
		uint m = (uint)warp_ballot((int)((d >> b) & 1u));
		peers &= (d >> b) & 1u ? m : ~m;
	}
	return peers;
}

CLWARP_INLINE uint sort_lanes_below(void)
{
	uint m;
	asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
	return m;
}

/* The highest lane of a mask. */
CLWARP_INLINE uint sort_top_lane(uint m)
{
	return 31u - clz(m);
}
#else
#define SORT_MASK_T ulong
CLWARP_INLINE ulong sort_digit_peers(uint d, CLWARP_WARP_PARAM)
{
	return warp_match_any(d);
}

CLWARP_INLINE ulong sort_lanes_below(void)
{
	return (1ul << ALGO_LANE()) - 1ul;
}

CLWARP_INLINE uint sort_top_lane(ulong m)
{
	return 63u - (uint)clz(m);
}
#endif

#define SORT_COUNT_ADD(a, b) ((a) + (b))
DEFINE_BLOCK_SCAN(sort_block_scan, uint, SORT_COUNT_ADD, 0u, warp_scan_exclusive_add, 1, 1)

/*
 * One work-group per pass: bins[pass] becomes the exclusive scan over the
 * digits, written after the bins (at OFFSETS_AT), and the
 * bins are cleared for the next sort.
 */
__kernel SORT_WG_ATTR void clwarp_sort_offsets(volatile global uint *bins)
{
	local uint sm[SORT_WARPS];
	uint pass = get_group_id(0);
	uint per = SORT_HAS_DIGIT() ? SORT_DIGITS_PER : 0u;
	uint first = LID * SORT_DIGITS_PER;
	volatile global uint *counts = bins + pass * RADIX;
	global uint *offsets = (global uint *)bins + OFFSETS_AT + pass * RADIX;
	uint sum = 0;

	for (uint j = 0; j < per; j++)
		sum += counts[first + j];
	uint a[1] = { sum };
	sort_block_scan(a, 0, sm, CLWARP_WARP_ARG);
	uint run = a[0];
	for (uint j = 0; j < per; j++) {
		offsets[first + j] = run;
		run += counts[first + j];
		counts[first + j] = 0;
	}
}

#ifdef SORT_WAIT_FREE
/*
 * A wait-free pass, first step: every tile's count of each digit, at
 * tile_counts[tile * RADIX + digit]. Tiles are those of clwarp_sort_pass,
 * one work-group each.
 */
__kernel SORT_WG_ATTR void clwarp_sort_count(global const KEY_T *keys, ulong n, uint mode, uint shift,
				uint mask, global uint *tile_counts)
{
	local uint counts[RADIX];
	uint tile = get_group_id(0);
	ulong base = (ulong)tile * SORT_TILE;
	uint valid = n - base < SORT_TILE ? (uint)(n - base) : SORT_TILE;

	for (uint d = LID; d < RADIX; d += WG)
		counts[d] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint j = 0; j < SORT_ITEMS; j++) {
		uint i = LID + j * WG;
		if (i < valid)
			atomic_inc(&counts[sort_digit(sort_order_bits(sort_word(keys[base + i], mode),
									mode), shift, mask)]);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint d = LID; d < RADIX; d += WG)
		tile_counts[(ulong)tile * RADIX + d] = counts[d];
}

/*
 * Second step, one work-group, one work-item per digit: the digit's tile
 * counts become, in place, the position in the pass's output of each
 * tile's first key of that digit (the digit's offset from
 * clwarp_sort_offsets plus its count in the tiles before). A serial sum
 * down each column: tiles * RADIX additions in all (2^18 for 2^22 keys),
 * no barrier, and the work-items of a work-group read consecutive words.
 */
__kernel SORT_WG_ATTR void clwarp_sort_scan_counts(global uint *tile_counts, uint tiles, global const uint *bins,
				      uint pass)
{
	for (uint d = LID; d < RADIX; d += WG) {
		uint run = bins[OFFSETS_AT + pass * RADIX + d];
		for (uint t = 0; t < tiles; t++) {
			ulong i = (ulong)t * RADIX + d;
			uint c = tile_counts[i];
			tile_counts[i] = run;
			run += c;
		}
	}
}
#endif

/*
 * One pass: a tile of SORT_TILE keys, SORT_ITEMS per work-item, element
 * (k, lane) of warp w at tile position (w * SORT_ITEMS + k) * W + lane.
 * Positions past the input (last tile) hold sort_pad_key, of the
 * highest digit: they rank after every key of the tile and are never
 * stored.
 * As CUB's Onesweep (BlockRadixRankMatchEarlyCounts):
 *
 * 1. Every warp counts its digits in its own row of `whist` (local
 *    atomics); one work-item per digit turns the column into each warp's
 *    first position within the digit and the tile's count of the digit,
 *    which goes to the look-back at once, before the long ranking, so
 *    that later tiles rarely wait for it. A block scan over the digits
 *    gives each digit's first position in the tile sorted by digit.
 * 2. Rank within the warp, in tile order: for each k, the lanes holding
 *    the same digit find each other; the highest of them adds their
 *    number to the warp's position of that digit and hands the old one
 *    round with a shuffle. That is the key's place in the sorted tile;
 *    the keys go there in local memory.
 * 3. Look-back, one work-item per digit: the digit's count in the tiles
 *    before; with the digit's offset from clwarp_sort_offsets that is
 *    where the tile's run of the digit starts in `keys_out`. Runs go out
 *    with coalesced stores, then the values the same way.
 *
 * With SORT_WAIT_FREE the tile is the work-group's id, nothing is
 * published and step 3 reads where the tile's run of each digit starts
 * from clwarp_sort_scan_counts (`tile_counts`) instead of looking back.
 *
 * Stable: ranks follow tile order, tiles follow the input.
 */
/* The last parameters, in a macro: the local backend's rewrite of kernel
 * signatures reads the text before the preprocessor does (src/source.c). */
#ifdef SORT_WAIT_FREE
#define SORT_PASS_PARAMS global const uint *tile_counts
#else
#define SORT_PASS_PARAMS volatile global uint *counter, volatile global ulong *words, \
	volatile global uint *slots
#endif
/* The look-back's walk in batches of 4 words (packed words only, where a
 * word read whole carries its state and value): keys alone on an H200
 * sorted uint keys in 0.95-0.97x the time; pairs, at 80 registers there,
 * lost up to 1.02x, so they walk one tile at a time (docs/design/sort-gpu.md). */
#if defined(ALGO_WORD64) && !defined(HAS_VALUES)
#define SORT_LOOKBACK_BATCH 4
#endif
/* Pairs on nv stage each key as it is ranked, so its register is free
 * for what follows: on an H200 0.96-0.97x the time. Keys alone lost up to
 * 1.05x that way, and pairs on PoCL 3.1 took 1.04-1.05x; they stage after
 * the ranking (docs/design/sort-gpu.md). */
#if defined(HAS_VALUES) && defined(CLWARP_BACKEND_NV)
#define SORT_STAGE_AS_RANKED 1
#endif
__kernel SORT_WG_ATTR void clwarp_sort_pass(global const KEY_T *keys_in, global KEY_T *keys_out,
			       global const VB *values_in, global VB *values_out, ulong n,
			       uint tiles, uint epoch, uint mode, uint shift, uint mask,
			       uint pass, global const uint *bins, SORT_PASS_PARAMS)
{
	local uint whist[SORT_WARPS * RADIX];
	local STAGE_T stage[SORT_TILE];
#if defined(HAS_VALUES) && SORT_TILE > SORT_WARPS * RADIX * 4
	local uchar stage_digit_own[SORT_TILE];
#endif
	local uint digit_start[RADIX];
	local uint digit_base[RADIX];
	local uint sm[SORT_WARPS];
#ifndef SORT_WAIT_FREE
	local uint tile_shared;
#endif
	KEY_T key[SORT_ITEMS];
	uint rank[SORT_ITEMS];
#ifdef HAS_VALUES
	VB value[SORT_ITEMS];
#endif

#ifdef SORT_WAIT_FREE
	uint tile = get_group_id(0);
#else
	uint tile = take_tile(counter, tiles, &tile_shared);
#endif
	ulong base = (ulong)tile * SORT_TILE;
	uint valid = n - base < SORT_TILE ? (uint)(n - base) : SORT_TILE;
	/* Loads clamped into the tile (no branch); a position past the input
	 * holds the pad key, so that no digit below needs a test. */
	for (uint k = 0; k < SORT_ITEMS; k++) {
		uint e = (ALGO_WARP() * SORT_ITEMS + k) * CLWARP_WARP_SIZE + ALGO_LANE();
		key[k] = sort_word(keys_in[base + min(e, valid - 1u)], mode);
		key[k] = e < valid ? key[k] : sort_pad_key(mode);
	}
	for (uint d = ALGO_LANE(); d < RADIX; d += CLWARP_WARP_SIZE)
		whist[ALGO_WARP() * RADIX + d] = 0;
	warp_barrier();

	/* 1. Digit counts per warp, then per digit down the warps. */
	for (uint k = 0; k < SORT_ITEMS; k++) {
		uint d = sort_digit(sort_order_bits(key[k], mode), shift, mask);
		atomic_inc(&whist[ALGO_WARP() * RADIX + d]);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	uint count[SORT_DIGITS_PER];
	uint a[1] = { 0 };
	for (uint j = 0; j < SORT_DIGITS_PER; j++) {
		uint d = LID * SORT_DIGITS_PER + j;
		uint run = 0;
		if (SORT_HAS_DIGIT()) {
			for (uint w = 0; w < SORT_WARPS; w++) {
				uint c = whist[w * RADIX + d];
				whist[w * RADIX + d] = run;
				run += c;
			}
#ifndef SORT_WAIT_FREE
			tile_publish(words, slots, tile * RADIX + d,
				     (epoch << 2) | (tile == 0 ? STATE_PREFIX : STATE_AGGREGATE), run);
#endif
		}
		count[j] = run;
		a[0] += run;
	}
	sort_block_scan(a, 0, sm, CLWARP_WARP_ARG);
	for (uint j = 0, run = a[0]; j < SORT_DIGITS_PER && SORT_HAS_DIGIT(); j++) {
		uint d = LID * SORT_DIGITS_PER + j;
		digit_start[d] = run;
		for (uint w = 0; w < SORT_WARPS; w++)
			whist[w * RADIX + d] += run;
		run += count[j];
	}
	barrier(CLK_LOCAL_MEM_FENCE);

	/* 2. Ranks within the warp. Keys alone: every key's peers first
	 * (independent ballots), then the chain of position updates. Pairs,
	 * short of registers: each key's peers as it is ranked. */
#ifndef HAS_VALUES
	SORT_MASK_T peer_masks[SORT_ITEMS];
	for (uint k = 0; k < SORT_ITEMS; k++) {
		uint d = sort_digit(sort_order_bits(key[k], mode), shift, mask);
		peer_masks[k] = sort_digit_peers(d, CLWARP_WARP_ARG);
	}
#endif
	for (uint k = 0; k < SORT_ITEMS; k++) {
		uint lane = ALGO_LANE(), w = ALGO_WARP();
		uint d = sort_digit(sort_order_bits(key[k], mode), shift, mask);
#ifdef HAS_VALUES
		SORT_MASK_T peers = sort_digit_peers(d, CLWARP_WARP_ARG);
#else
		SORT_MASK_T peers = peer_masks[k];
#endif
		uint top = sort_top_lane(peers);
		uint at = 0;
#ifdef CLWARP_BACKEND_NV
		/* One local atomic, as CUB: the shuffle's warp sync orders the
		 * warp's updates from one key to the next. */
		if (lane == top)
			at = atomic_add(&whist[w * RADIX + d], (uint)popcount(peers));
		rank[k] = warp_shuffle(at, top) + (uint)popcount(peers & sort_lanes_below());
#else
		if (lane == top) {
			at = whist[w * RADIX + d];
			whist[w * RADIX + d] = at + (uint)popcount(peers);
		}
		rank[k] = warp_shuffle(at, top) + (uint)popcount(peers & sort_lanes_below());
		warp_barrier();
#endif
#ifdef SORT_STAGE_AS_RANKED
		/* No barrier: nothing has read or written `stage` yet. */
		stage[rank[k]] = (STAGE_T)AS_KB(key[k]);
#endif
	}
#ifndef SORT_STAGE_AS_RANKED
	/* No barrier: nothing has read or written `stage` yet. */
	for (uint k = 0; k < SORT_ITEMS; k++)
		stage[rank[k]] = (STAGE_T)AS_KB(key[k]);
#endif
#ifdef HAS_VALUES
	/* The values load once the keys are staged, in the registers the keys
	 * held, and are in flight through the look-back and the keys'
	 * stores. */
	for (uint k = 0; k < SORT_ITEMS; k++) {
		uint e = (ALGO_WARP() * SORT_ITEMS + k) * CLWARP_WARP_SIZE + ALGO_LANE();
		value[k] = values_in[base + min(e, valid - 1u)];
	}
#endif

	/* 3. Where each digit's run starts in keys_out, less its start in
	 * the tile. */
#ifdef SORT_WAIT_FREE
	for (uint d = LID; d < RADIX; d += WG)
		digit_base[d] = tile_counts[(ulong)tile * RADIX + d] - digit_start[d];
#else
	{
		const uint fa = (epoch << 2) | STATE_AGGREGATE, fp = (epoch << 2) | STATE_PREFIX;
		global const uint *offsets = bins + OFFSETS_AT + pass * RADIX;
		for (uint j = 0; j < SORT_DIGITS_PER && SORT_HAS_DIGIT(); j++) {
			uint d = LID * SORT_DIGITS_PER + j;
			uint excl = 0;
#ifdef SORT_LOOKBACK_BATCH
			/* SORT_LOOKBACK_BATCH predecessors' words requested at once,
			 * then taken in order; one not ready yet is waited for alone.
			 * A walk of k tiles then costs about k / batch round trips to
			 * L2 instead of k. */
			if (tile > 0) {
				int t = (int)tile - 1;
				bool done = false;
				while (!done) {
					ulong w[SORT_LOOKBACK_BATCH];
					for (int i = 0; i < SORT_LOOKBACK_BATCH; i++)
						w[i] = t >= i ? word_load(&words[(uint)(t - i) * RADIX + d]) : 0ul;
					for (int i = 0; i < SORT_LOOKBACK_BATCH && !done; i++) {
						uint state = (uint)(w[i] >> 32), v = (uint)w[i];
						if (state != fa && state != fp)
							state = tile_wait(words, slots, (uint)(t - i) * RADIX + d,
									  fa, fp, &v);
						excl += v;
						done = state == fp;
					}
					t -= SORT_LOOKBACK_BATCH;
				}
				tile_publish(words, slots, tile * RADIX + d, fp, excl + count[j]);
			}
#else
			if (tile > 0) {
				for (int t = (int)tile - 1; t >= 0; t--) {
					uint v;
					uint f = tile_wait(words, slots, (uint)t * RADIX + d, fa, fp, &v);
					excl += v;
					if (f == fp)
						break;
				}
				tile_publish(words, slots, tile * RADIX + d, fp, excl + count[j]);
			}
#endif
			digit_base[d] = offsets[d] + excl - digit_start[d];
		}
	}
#endif
	barrier(CLK_LOCAL_MEM_FENCE);

	/* Runs of equal digits are consecutive in the stage and in keys_out.
	 * Every load is in the tile; only the stores past the input wait. */
#ifdef HAS_VALUES
	/* Each staged key's digit, for its value: in local memory rather than
	 * SORT_ITEMS registers, laid over whist (free since the ranking) where
	 * it fits. Each work-item reads back only what it wrote. */
#if SORT_TILE > SORT_WARPS * RADIX * 4
	local uchar *stage_digit = stage_digit_own;
#else
	local uchar *stage_digit = (local uchar *)whist;
#endif
#endif
	for (uint j = 0; j < SORT_ITEMS; j++) {
		uint i = LID + j * WG;
		KEY_T kv = AS_KEY((KB)stage[i]);
		uint d = sort_digit(sort_order_bits(kv, mode), shift, mask);
		if (i < valid)
			keys_out[digit_base[d] + i] = sort_unword(kv, mode);
#ifdef HAS_VALUES
		stage_digit[i] = (uchar)d;
#endif
	}
#ifdef HAS_VALUES
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = 0; k < SORT_ITEMS; k++)
		stage[rank[k]] = (STAGE_T)value[k];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint j = 0; j < SORT_ITEMS; j++) {
		uint i = LID + j * WG;
		if (i < valid)
			values_out[digit_base[stage_digit[i]] + i] = (VB)stage[i];
	}
#endif
}
