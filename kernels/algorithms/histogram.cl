/* libclwarp algorithms: histogram with even bins (CUB's HistogramEven).
 *
 * Defines from the library, beyond common.cl's (T is the sample type):
 *   KB, AS_KB, AS_T        T's same-width unsigned type, reinterpretations
 *   KEY_BITS               T's width
 *   HIST_FLOAT             1 for float and double samples
 *   HIST_LOCAL_BINS        bins of clwarp_histogram_shared's local histogram
 *
 * The bounds and the bin parameter arrive as bits in a ulong (the low half
 * for 4-byte types, and for 1- and 2-byte samples, whose bounds are ints);
 * src/algo_histogram.c says how it picks `mode` and `p`.
 * A call clears the counts (clwarp_histogram_clear), then either counts
 * per work-group in local memory and adds the work-group's counts to the
 * global ones (clwarp_histogram_shared), or, where the bins do not fit in
 * local memory, counts with global atomics (clwarp_histogram_global). */

#define HIST_NONE 0xffffffffu
#define LID ((uint)get_local_id(0))

DEFINE_LOAD_TILE(load_tile, T, T_VEC)

/*
 * The bin of sample x, HIST_NONE outside [lower, upper) (NaN included).
 * Integers, exactly floor((x - lower) * bins / (upper - lower)), the
 * difference d taken in KB (exact, as x >= lower). Mode 0 shifts by p,
 * the bin width where it is a power of two. 1- to 4-byte samples
 * otherwise multiply by the reciprocal (hist_recip). 1- and 2-byte
 * samples compare as ints with int bounds (the low 32 bits of lower and
 * upper): d is taken in uint, exact as the true one lies in [0, 2^32).
 * 8-byte samples divide by p, the bin width where it is a whole number
 * (mode 1), else form d * bins in 64 bits and divide by p = upper - lower
 * (mode 2) or, where that overflows, in 96 bits with a long division
 * (mode 3). Floats, CUB's formula: (x - lower) * p, p being bins /
 * (upper - lower) rounded to T by the host, truncated and capped at the
 * last bin.
 */
#if !HIST_FLOAT && KEY_BITS <= 32
/*
 * floor(d * bins / range) for d < range <= 2^32 - 1 without a division:
 * bins / range = q + r / range, and the host passes m = ceil(r * 2^64 /
 * range) (< 2^64), so the bin is d * q + floor(d * m / 2^64). The error
 * of m is below 1, so d * m / 2^64 exceeds d * r / range by less than
 * d / 2^64 < 1 / range, while the fraction of d * r / range is at most
 * (range - 1) / range: the floor is exact for every d (tests/test-histogram.c
 * checks bin edges, widths and ranges up to 2^32 - 1). d * m / 2^64 comes from
 * 32-bit halves of m: the high word of d * m_lo, added to d * m_hi (no
 * carry out of 64 bits), shifted down by 32.
 */
CLWARP_INLINE uint hist_recip(uint d, ulong m, uint q)
{
	ulong lo = ((ulong)d * (uint)m) >> 32;
	ulong hi = (ulong)d * (uint)(m >> 32) + lo;

	return d * q + (uint)(hi >> 32);
}
#endif

CLWARP_INLINE uint hist_bin(T x, ulong lower, ulong upper, ulong p, uint q, uint mode, uint bins)
{
#if HIST_FLOAT
	T lo = AS_T((KB)lower), hi = AS_T((KB)upper);

	if (!(x >= lo && x < hi))
		return HIST_NONE;
	T t = (x - lo) * AS_T((KB)p);
	return t < (T)bins ? min((uint)t, bins - 1u) : bins - 1u;
#elif KEY_BITS <= 32
#if KEY_BITS < 32
	int xi = (int)x;   /* sign-extends char and short, zero-extends uchar and ushort */
	int lo = as_int((uint)lower), hi = as_int((uint)upper);

	if (xi < lo || xi >= hi)
		return HIST_NONE;
	uint d = (uint)xi - (uint)lo;
#else
	T lo = AS_T((KB)lower), hi = AS_T((KB)upper);

	if (x < lo || x >= hi)
		return HIST_NONE;
	uint d = AS_KB(x) - (uint)lower;
#endif
	return mode == 0 ? d >> (uint)p : hist_recip(d, p, q);
#else
	T lo = AS_T((KB)lower), hi = AS_T((KB)upper);

	if (x < lo || x >= hi)
		return HIST_NONE;
	KB d = AS_KB(x) - (KB)lower;
	if (mode == 0)
		return (uint)(d >> p);
	if (mode == 1)
		return (uint)(d / (KB)p);
	if (mode == 2)
		return (uint)(d * bins / p);
	/* d * bins < p * 2^32: (d * bins) >> 32 is below p, and the quotient
	 * has 32 bits, one per step of a restoring division. The product in
	 * 32-bit halves of d, not with mul_hi: LLVM turns that into a funnel
	 * shift, which Oclgrind 21.10 cannot run. */
	ulong low = (d & 0xffffffffu) * bins;
	ulong r = (d >> 32) * bins + (low >> 32);
	uint qt = 0;
	for (int i = 31; i >= 0; i--) {
		ulong carry = r >> 63;
		r = r << 1 | ((low >> i) & 1ul);
		qt <<= 1;
		if (carry || r >= p) {
			r -= p;
			qt |= 1u;
		}
	}
	return qt;
#endif
}

/* Whether every lane's vector b holds lane 0's first bin. */
CLWARP_INLINE bool hist_uniform(const uint *b, CLWARP_WARP_PARAM)
{
	uint b0 = warp_broadcast(b[0], 0u);
	int same = 1;

	for (uint c = 0; c < VEC; c++)
		same &= b[c] == b0;
	return warp_all(same);
}

/*
 * Count the bins of one tile (ITEMS_K vectors per work-item): one atomic
 * per warp for a vector where every lane's whole vector has lane 0's
 * first bin (constant or sorted data, where a bin's atomics would
 * otherwise queue up), else one per sample. Where a warp may vote on its
 * own, a tile whose first vector is not uniform is counted sample by
 * sample with no more votes: on random floats the votes cost 10 % of the
 * histogram's time on the H200 (docs/design/hist-rle.md). Every
 * work-item comes here (the warp calls).
 */
#ifdef CLWARP_ALGO_WARP_ALONE
#define HIST_FIRST_VOTE(b) hist_uniform(b, CLWARP_WARP_ARG)
#define HIST_VOTE(k, v, first) ((k) == 0 ? (first) : (first) && hist_uniform(v, CLWARP_WARP_ARG))
#else
/* Every vector votes: a warp call is a work-group barrier here. */
#define HIST_FIRST_VOTE(b) true
#define HIST_VOTE(k, v, first) hist_uniform(v, CLWARP_WARP_ARG)
#endif
#define DEFINE_HIST_COUNT(NAME, AS) \
	CLWARP_INLINE void NAME(volatile AS uint *h, const uint *b, CLWARP_WARP_PARAM) \
	{ \
		HIST_COUNT_BODY \
	}
#define HIST_COUNT_BODY \
	const bool first = HIST_FIRST_VOTE(b); \
 \
	for (uint k = 0; k < ITEMS_K; k++) { \
		const uint *v = b + k * VEC; \
		if (HIST_VOTE(k, v, first)) { \
			if (ALGO_LANE() == 0 && v[0] != HIST_NONE) \
				atomic_add(&h[v[0]], (uint)(CLWARP_WARP_SIZE * VEC)); \
		} else { \
			for (uint c = 0; c < VEC; c++) { \
				if (v[c] != HIST_NONE) \
					atomic_inc(&h[v[c]]); \
			} \
		} \
	}
DEFINE_HIST_COUNT(hist_count_local, local)
DEFINE_HIST_COUNT(hist_count_global, global)

/* The bins of tile t, loaded in a (HIST_NONE past n). A whole tile, all
 * but the last, skips the test per sample. */
CLWARP_INLINE void hist_bins(const T *a, ulong t, ulong n, ulong lower, ulong upper, ulong p,
			     uint q, uint mode, uint bins, uint *b, CLWARP_WARP_PARAM)
{
	ulong base = t * TILE;

	if (base + TILE <= n) {
		for (uint i = 0; i < ITEMS; i++)
			b[i] = hist_bin(a[i], lower, upper, p, q, mode, bins);
		return;
	}
	for (uint k = 0; k < ITEMS_K; k++) {
		ulong o = base + tile_offset(k);
		for (uint c = 0; c < VEC; c++)
			b[k * VEC + c] = o + c < n ? hist_bin(a[k * VEC + c], lower, upper, p, q, mode, bins)
						   : HIST_NONE;
	}
}

__kernel void clwarp_histogram_clear(global uint *counts, uint bins)
{
	if (get_global_id(0) < bins)
		counts[get_global_id(0)] = 0;
}

/*
 * Counts in local memory, added to the global ones at the end, with no
 * clear kernel before it (a launch costs more than the clear): the
 * work-group that takes ticket 0 zeroes `counts` and then publishes the
 * call's epoch in the state half of words[0]; the others wait for that
 * before adding theirs. Ticket 0 was taken by a work-group that has
 * started, so the wait needs only the forward progress the look-back
 * needs; by the time a work-group has counted its tiles it has long been
 * set. Each work-group loads its next tile before counting the one it
 * holds, so that loads stay in flight during the atomics.
 */
__kernel void clwarp_histogram_shared(global const T *restrict in, ulong n, ulong lower, ulong upper,
				      ulong p, uint q, uint mode, uint bins,
				      volatile global uint *counts, uint groups, uint epoch,
				      volatile global uint *counter, volatile global ulong *words)
{
	local uint hist[HIST_LOCAL_BINS];
	local uint ticket;
	ulong tiles = (n + TILE - 1) / TILE;
	volatile global uint *flag = STATE_HALF(words, 0);
	const uint ready = (epoch << 2) | STATE_PREFIX;
	T a[ITEMS];
	ulong t = get_group_id(0);

	/* The first tile's loads go out before anything else. */
	if (t < tiles)
		load_tile(in, t * TILE, n, (T)0, a, CLWARP_WARP_ARG);
	/* No barrier inside the branch: PoCL 6.0 turned the clear loop
	 * below into one without an exit when one was there. */
	const bool first = take_tile(counter, groups, &ticket) == 0;

	/* Atomics, as every access other work-groups race with (Oclgrind). */
	if (first) {
		for (uint i = LID; i < bins; i += WG)
			atomic_xchg(&counts[i], 0u);
	}
	for (uint i = LID; i < bins; i += WG)
		hist[i] = 0;
	barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
	if (first && LID == 0) {
		GLOBAL_FENCE();
		atomic_xchg(flag, ready);
	}
	for (; t < tiles; t += get_num_groups(0)) {
		uint b[ITEMS];

		hist_bins(a, t, n, lower, upper, p, q, mode, bins, b, CLWARP_WARP_ARG);
		if (t + get_num_groups(0) < tiles)
			load_tile(in, (t + get_num_groups(0)) * TILE, n, (T)0, a, CLWARP_WARP_ARG);
		hist_count_local(hist, b, CLWARP_WARP_ARG);
	}
	if (LID == 0) {
		while (atomic_or(flag, 0u) != ready)
			;
		GLOBAL_FENCE();
	}
	barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
	for (uint i = LID; i < bins; i += WG) {
		if (hist[i])
			atomic_add(&counts[i], hist[i]);
	}
}

/* Every sample a global atomic, after clwarp_histogram_clear. */
__kernel void clwarp_histogram_global(global const T *in, ulong n, ulong lower, ulong upper,
				      ulong p, uint q, uint mode, uint bins,
				      volatile global uint *counts)
{
	ulong tiles = (n + TILE - 1) / TILE;

	for (ulong t = get_group_id(0); t < tiles; t += get_num_groups(0)) {
		T a[ITEMS];
		uint b[ITEMS];

		load_tile(in, t * TILE, n, (T)0, a, CLWARP_WARP_ARG);
		hist_bins(a, t, n, lower, upper, p, q, mode, bins, b, CLWARP_WARP_ARG);
		hist_count_global(counts, b, CLWARP_WARP_ARG);
	}
}
