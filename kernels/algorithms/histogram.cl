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
 * difference taken in KB (exact, as x >= lower): mode 0 shifts by p and
 * mode 1 divides by p, the bin width where it is a whole number;
 * otherwise p is upper - lower and the product is formed in 64 bits
 * (mode 2) or, for 64-bit samples where it overflows, in 96 bits with a
 * long division (mode 3). 1- and 2-byte samples compare as ints with int
 * bounds (the low 32 bits of lower and upper): the difference is taken in
 * uint, exact as the true one lies in [0, 2^32), and p (a shift of at
 * most 31, a width or upper - lower) is below 2^32, so the product d *
 * bins fits in 64 bits. Floats, CUB's formula: (x - lower) * p, p being
 * bins / (upper - lower) rounded to T by the host, truncated and capped
 * at the last bin.
 */
CLWARP_INLINE uint hist_bin(T x, ulong lower, ulong upper, ulong p, uint mode, uint bins)
{
#if HIST_FLOAT
	T lo = AS_T((KB)lower), hi = AS_T((KB)upper);

	if (!(x >= lo && x < hi))
		return HIST_NONE;
	T t = (x - lo) * AS_T((KB)p);
	return t < (T)bins ? min((uint)t, bins - 1u) : bins - 1u;
#elif KEY_BITS < 32
	int xi = (int)x;   /* sign-extends char and short, zero-extends uchar and ushort */
	int lo = as_int((uint)lower), hi = as_int((uint)upper);

	if (xi < lo || xi >= hi)
		return HIST_NONE;
	uint d = (uint)xi - (uint)lo;
	if (mode == 0)
		return d >> (uint)p;
	if (mode == 1)
		return d / (uint)p;
	return (uint)(((ulong)d * bins) / p);
#else
	T lo = AS_T((KB)lower), hi = AS_T((KB)upper);

	if (x < lo || x >= hi)
		return HIST_NONE;
	KB d = AS_KB(x) - (KB)lower;
	if (mode == 0)
		return (uint)(d >> p);
	if (mode == 1)
		return (uint)(d / (KB)p);
#if KEY_BITS <= 32
	return (uint)(((ulong)d * bins) / p);
#else
	if (mode == 2)
		return (uint)(d * bins / p);
	/* d * bins < p * 2^32: (d * bins) >> 32 is below p, and the quotient
	 * has 32 bits, one per step of a restoring division. The product in
	 * 32-bit halves of d, not with mul_hi: LLVM turns that into a funnel
	 * shift, which Oclgrind 21.10 cannot run. */
	ulong low = (d & 0xffffffffu) * bins;
	ulong r = (d >> 32) * bins + (low >> 32);
	uint q = 0;
	for (int i = 31; i >= 0; i--) {
		ulong carry = r >> 63;
		r = r << 1 | ((low >> i) & 1ul);
		q <<= 1;
		if (carry || r >= p) {
			r -= p;
			q |= 1u;
		}
	}
	return q;
#endif
#endif
}

/*
 * Count one bin per work-item of the work-group: one atomic per warp where
 * every lane has the same bin (constant or sorted data, where a bin's
 * atomics would otherwise queue up), else one per work-item. Every
 * work-item comes here (the warp calls).
 */
#define HIST_COUNT(h, bin) \
	do { \
		uint b_ = (bin); \
		uint b0_ = warp_broadcast(b_, 0u); \
		if (warp_all(b_ == b0_)) { \
			if (ALGO_LANE() == 0 && b0_ != HIST_NONE) \
				atomic_add(&(h)[b0_], (uint)CLWARP_WARP_SIZE); \
		} else if (b_ != HIST_NONE) { \
			atomic_inc(&(h)[b_]); \
		} \
	} while (0)

/* The bins of tile t (HIST_NONE past n); a work-group strides over the tiles. */
CLWARP_INLINE void hist_tile(global const T *in, ulong t, ulong n, ulong lower, ulong upper,
			     ulong p, uint mode, uint bins, uint *b, CLWARP_WARP_PARAM)
{
	T a[ITEMS];
	ulong base = t * TILE;

	load_tile(in, base, n, (T)0, a, CLWARP_WARP_ARG);
	for (uint k = 0; k < ITEMS_K; k++) {
		ulong o = base + tile_offset(k);
		for (uint c = 0; c < VEC; c++)
			b[k * VEC + c] = o + c < n ? hist_bin(a[k * VEC + c], lower, upper, p, mode, bins)
						   : HIST_NONE;
	}
}

__kernel void clwarp_histogram_clear(global uint *counts, uint bins)
{
	if (get_global_id(0) < bins)
		counts[get_global_id(0)] = 0;
}

__kernel void clwarp_histogram_shared(global const T *in, ulong n, ulong lower, ulong upper,
				      ulong p, uint mode, uint bins, volatile global uint *counts)
{
	local uint hist[HIST_LOCAL_BINS];
	ulong tiles = (n + TILE - 1) / TILE;

	for (uint i = LID; i < bins; i += WG)
		hist[i] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (ulong t = get_group_id(0); t < tiles; t += get_num_groups(0)) {
		uint b[ITEMS];
		hist_tile(in, t, n, lower, upper, p, mode, bins, b, CLWARP_WARP_ARG);
		for (uint i = 0; i < ITEMS; i++)
			HIST_COUNT(hist, b[i]);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint i = LID; i < bins; i += WG) {
		if (hist[i])
			atomic_add(&counts[i], hist[i]);
	}
}

__kernel void clwarp_histogram_global(global const T *in, ulong n, ulong lower, ulong upper,
				      ulong p, uint mode, uint bins, volatile global uint *counts)
{
	ulong tiles = (n + TILE - 1) / TILE;

	for (ulong t = get_group_id(0); t < tiles; t += get_num_groups(0)) {
		uint b[ITEMS];
		hist_tile(in, t, n, lower, upper, p, mode, bins, b, CLWARP_WARP_ARG);
		for (uint i = 0; i < ITEMS; i++)
			HIST_COUNT(counts, b[i]);
	}
}
