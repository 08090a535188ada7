/* libclwarp local backend: warps emulated in local memory.
 * Every primitive is a full work-group exchange through the hidden kernel
 * argument __clwarp_scratch (one ulong per work-item), fenced by real
 * barriers before and after, so it is correct on any device and clean under
 * Oclgrind. The public names are macros because they need that pointer. */

#define CLWARP_WARP_PARAM local ulong *__clwarp_scratch
#define CLWARP_WARP_ARG __clwarp_scratch

/* The functions behind the public names take the scratch pointer first
 * (generic.cl writes them as CLWARP_FN(warp_x)(CLWARP_CTX_PARAM ...)); the
 * public names are macros that pass it. The engine's source rewrite gives
 * every user function that calls a warp function that parameter. */
#define CLWARP_CTX_PARAM local ulong *__clwarp_scratch,
#define CLWARP_CTX_ARG __clwarp_scratch,
#define CLWARP_FN(name) clwarp_##name

#define warp_shuffle(...) clwarp_warp_shuffle(__clwarp_scratch, __VA_ARGS__)
#define warp_shuffle_down(...) clwarp_warp_shuffle_down(__clwarp_scratch, __VA_ARGS__)
#define warp_shuffle_up(...) clwarp_warp_shuffle_up(__clwarp_scratch, __VA_ARGS__)
#define warp_shuffle_xor(...) clwarp_warp_shuffle_xor(__clwarp_scratch, __VA_ARGS__)
#define warp_broadcast(...) clwarp_warp_broadcast(__clwarp_scratch, __VA_ARGS__)
#define warp_ballot(...) clwarp_warp_ballot(__clwarp_scratch, __VA_ARGS__)
#define warp_all(...) clwarp_warp_all(__clwarp_scratch, __VA_ARGS__)
#define warp_any(...) clwarp_warp_any(__clwarp_scratch, __VA_ARGS__)
#define warp_none(...) clwarp_warp_none(__clwarp_scratch, __VA_ARGS__)
#define warp_match_any(...) clwarp_warp_match_any(__clwarp_scratch, __VA_ARGS__)
#define warp_match_all(...) clwarp_warp_match_all(__clwarp_scratch, __VA_ARGS__)
#define warp_reduce_add(...) clwarp_warp_reduce_add(__clwarp_scratch, __VA_ARGS__)
#define warp_reduce_min(...) clwarp_warp_reduce_min(__clwarp_scratch, __VA_ARGS__)
#define warp_reduce_max(...) clwarp_warp_reduce_max(__clwarp_scratch, __VA_ARGS__)
#define warp_reduce_mul(...) clwarp_warp_reduce_mul(__clwarp_scratch, __VA_ARGS__)
#define warp_reduce_and(...) clwarp_warp_reduce_and(__clwarp_scratch, __VA_ARGS__)
#define warp_reduce_or(...) clwarp_warp_reduce_or(__clwarp_scratch, __VA_ARGS__)
#define warp_reduce_xor(...) clwarp_warp_reduce_xor(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_inclusive_add(...) clwarp_warp_scan_inclusive_add(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_inclusive_min(...) clwarp_warp_scan_inclusive_min(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_inclusive_max(...) clwarp_warp_scan_inclusive_max(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_inclusive_mul(...) clwarp_warp_scan_inclusive_mul(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_inclusive_and(...) clwarp_warp_scan_inclusive_and(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_inclusive_or(...) clwarp_warp_scan_inclusive_or(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_inclusive_xor(...) clwarp_warp_scan_inclusive_xor(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_exclusive_add(...) clwarp_warp_scan_exclusive_add(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_exclusive_min(...) clwarp_warp_scan_exclusive_min(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_exclusive_max(...) clwarp_warp_scan_exclusive_max(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_exclusive_mul(...) clwarp_warp_scan_exclusive_mul(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_exclusive_and(...) clwarp_warp_scan_exclusive_and(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_exclusive_or(...) clwarp_warp_scan_exclusive_or(__clwarp_scratch, __VA_ARGS__)
#define warp_scan_exclusive_xor(...) clwarp_warp_scan_exclusive_xor(__clwarp_scratch, __VA_ARGS__)
/* sort.cl; warp_sort_pairs and _descending are macros there on every backend. */
#define warp_sort(...) clwarp_warp_sort(__clwarp_scratch, __VA_ARGS__)
#define warp_sort_descending(...) clwarp_warp_sort_descending(__clwarp_scratch, __VA_ARGS__)
#define warp_exchange_blocked_to_striped(...) clwarp_warp_exchange_blocked_to_striped(__clwarp_scratch, __VA_ARGS__)
#define warp_exchange_striped_to_blocked(...) clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, __VA_ARGS__)

#define CLWARP_LANE_MASK ((uint)CLWARP_WARP_SIZE - 1u)

CLWARP_INLINE uint warp_size(void) { return CLWARP_WARP_SIZE; }
CLWARP_INLINE uint warp_lane_id(void) { return clwarp_linear_local_id() & CLWARP_LANE_MASK; }
CLWARP_INLINE uint warp_id(void) { return clwarp_linear_local_id() / CLWARP_WARP_SIZE; }
CLWARP_INLINE uint warp_count(void)
{
	return (clwarp_linear_local_size() + CLWARP_WARP_SIZE - 1) / CLWARP_WARP_SIZE;
}

CLWARP_INLINE void warp_barrier(void) { barrier(CLK_LOCAL_MEM_FENCE); }

/* Publish own bits, then read those of lane src_lane (already < warp size)
 * of the same warp. */
CLWARP_INLINE ulong clwarp_local_exchange(local ulong *scratch, ulong bits, uint src_lane)
{
	uint lid = clwarp_linear_local_id();
	scratch[lid] = bits;
	barrier(CLK_LOCAL_MEM_FENCE);
	ulong r = scratch[(lid & ~CLWARP_LANE_MASK) + src_lane];
	barrier(CLK_LOCAL_MEM_FENCE);
	return r;
}

CLWARP_OVERLOAD ulong clwarp_warp_ballot(local ulong *scratch, int pred)
{
	uint lid = clwarp_linear_local_id();
	scratch[lid] = pred != 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	local const ulong *warp = scratch + (lid & ~CLWARP_LANE_MASK);
	ulong mask = 0;
	for (uint i = 0; i < CLWARP_WARP_SIZE; i++)
		mask |= warp[i] << i;
	barrier(CLK_LOCAL_MEM_FENCE);
	return mask;
}

CLWARP_OVERLOAD int clwarp_warp_all(local ulong *scratch, int pred)
{
	return clwarp_warp_ballot(scratch, pred) == CLWARP_FULL_BALLOT;
}

CLWARP_OVERLOAD int clwarp_warp_any(local ulong *scratch, int pred)
{
	return clwarp_warp_ballot(scratch, pred) != 0ul;
}

/* Match: each lane compares its bits with its warp's in local memory. */
#define CLWARP_HAS_MATCH_CORE 1
CLWARP_OVERLOAD ulong clwarp_match_bits(local ulong *scratch, ulong bits)
{
	uint lid = clwarp_linear_local_id();
	scratch[lid] = bits;
	barrier(CLK_LOCAL_MEM_FENCE);
	local const ulong *warp = scratch + (lid & ~CLWARP_LANE_MASK);
	ulong mask = 0;
	for (uint i = 0; i < CLWARP_WARP_SIZE; i++)
		mask |= (ulong)(warp[i] == bits) << i;
	barrier(CLK_LOCAL_MEM_FENCE);
	return mask;
}

CLWARP_OVERLOAD ulong clwarp_match_bits(local ulong *scratch, uint bits)
{
	return clwarp_match_bits(scratch, (ulong)bits);
}

/* Values travel through the scratch as ulong slots. */
#define CLWARP_LOCAL_SLOTS(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD ulong clwarp_to_slot(T v) { return (ulong)CLWARP_TO_BITS(BITS, v); } \
	CLWARP_OVERLOAD T clwarp_from_slot(ulong slot, T like) { return CLWARP_FROM_BITS(T, (BITS)slot); }
CLWARP_TYPES(CLWARP_LOCAL_SLOTS)

/* Reductions and scans fold the segment's values in lane order, lanes
 * [first, end) of the warp, end > first, so every lane of a reduction gets
 * the same bits and any associative OP works. The first value seeds the
 * accumulator (keeps -0.0 sums). Two barriers, whatever the width:
 * generic.cl builds every operator, and every width, from these. The loop
 * is not vectorised: Intel's CPU compiler turns it into partial sums added
 * at the end, another order for floats (docs/intel-opencl.md). */
#define CLWARP_LOCAL_FOLD(T, OP, FIRST, END) \
	uint lid = clwarp_linear_local_id(); \
	__clwarp_scratch[lid] = clwarp_to_slot(v); \
	barrier(CLK_LOCAL_MEM_FENCE); \
	local const ulong *warp = __clwarp_scratch + (lid & ~CLWARP_LANE_MASK); \
	uint first = (FIRST), end = (END); \
	T acc = clwarp_from_slot(warp[first], v); \
	_Pragma("clang loop vectorize(disable)") \
	for (uint i = first + 1u; i < end; i++) \
		acc = OP(acc, clwarp_from_slot(warp[i], v)); \
	barrier(CLK_LOCAL_MEM_FENCE);

/* A value wider than a slot (the wide vectors of types.cl, a user
 * operator's wide type) takes generic.cl's shuffle path instead; the
 * branch is on a constant, so each type compiles to one of the two. */
#define CLWARP_GEN_REDUCE(FN, T, OP) \
	CLWARP_OVERLOAD T FN(local ulong *__clwarp_scratch, T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		if (sizeof(T) > sizeof(ulong)) { \
			CLWARP_SHFL_REDUCE_BODY(T, OP) \
		} \
		uint w = clwarp_width(width), start = warp_lane_id() & ~(w - 1u); \
		CLWARP_LOCAL_FOLD(T, OP, start, start + max(w, 1u)) \
		return acc; \
	}

/* The exclusive scan folds one value more on a segment's first lane and
 * throws it away, so every lane reaches the same barriers. */
#define CLWARP_GEN_SCAN(FN_INCLUSIVE, FN_EXCLUSIVE, T, OP, IDENTITY) \
	CLWARP_OVERLOAD T FN_INCLUSIVE(local ulong *__clwarp_scratch, T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		if (sizeof(T) > sizeof(ulong)) { \
			CLWARP_SHFL_INCLUSIVE_BODY(T, OP) \
		} \
		uint lane = warp_lane_id(), w = clwarp_width(width); \
		CLWARP_LOCAL_FOLD(T, OP, lane & ~(w - 1u), lane + 1u) \
		return acc; \
	} \
	CLWARP_OVERLOAD T FN_EXCLUSIVE(local ulong *__clwarp_scratch, T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		if (sizeof(T) > sizeof(ulong)) { \
			CLWARP_SHFL_EXCLUSIVE_BODY(FN_INCLUSIVE, T, IDENTITY) \
		} \
		uint lane = warp_lane_id(), w = clwarp_width(width), start = lane & ~(w - 1u); \
		CLWARP_LOCAL_FOLD(T, OP, start, lane > start ? lane : start + 1u) \
		return lane > start ? acc : (T)(IDENTITY); \
	}

#define CLWARP_LOCAL_TYPE(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD T clwarp_warp_shuffle(local ulong *scratch, T v, uint src_lane) \
	{ \
		return CLWARP_FROM_BITS(T, (BITS)clwarp_local_exchange(scratch, \
			CLWARP_TO_BITS(BITS, v), src_lane & CLWARP_LANE_MASK)); \
	} \
	CLWARP_OVERLOAD T clwarp_warp_broadcast(local ulong *scratch, T v, uint src_lane) \
	{ \
		return clwarp_warp_shuffle(scratch, v, src_lane); \
	} \
	CLWARP_OVERLOAD T clwarp_warp_shuffle_down(local ulong *scratch, T v, uint delta) \
	{ \
		uint lane = warp_lane_id(); \
		uint src = delta < CLWARP_WARP_SIZE - lane ? lane + delta : lane; \
		return CLWARP_FROM_BITS(T, (BITS)clwarp_local_exchange(scratch, \
			CLWARP_TO_BITS(BITS, v), src)); \
	} \
	CLWARP_OVERLOAD T clwarp_warp_shuffle_up(local ulong *scratch, T v, uint delta) \
	{ \
		uint lane = warp_lane_id(); \
		uint src = lane >= delta ? lane - delta : lane; \
		return CLWARP_FROM_BITS(T, (BITS)clwarp_local_exchange(scratch, \
			CLWARP_TO_BITS(BITS, v), src)); \
	} \
	CLWARP_OVERLOAD T clwarp_warp_shuffle_xor(local ulong *scratch, T v, uint mask) \
	{ \
		uint lane = warp_lane_id(); \
		uint src = (lane ^ mask) < CLWARP_WARP_SIZE ? lane ^ mask : lane; \
		return CLWARP_FROM_BITS(T, (BITS)clwarp_local_exchange(scratch, \
			CLWARP_TO_BITS(BITS, v), src)); \
	}

CLWARP_TYPES(CLWARP_LOCAL_TYPE)

/* add, min and max too come from the folds (generic.cl). */
#define CLWARP_FOLD_COLLECTIVES 1
