/* libclwarp generic warp layer, written once over each backend's core: the
 * full-warp shuffles, ballot and votes, and the add/min/max collectives
 * where the backend has them. The engine puts this file after the backend
 * file. It adds logical widths to every function, the mul/and/or/xor
 * operators, user-defined operators, warp_none and match.
 *
 * CLWARP_FN(warp_x) names the function behind the public warp_x: warp_x
 * itself, or on local clwarp_warp_x, which the macro warp_x calls with the
 * scratch pointer; CLWARP_CTX_PARAM / CLWARP_CTX_ARG are that pointer's
 * parameter and argument (empty elsewhere). Bodies here call the public
 * names, so the same text works on every backend. */

#ifndef CLWARP_FN
#define CLWARP_FN(name) name
#define CLWARP_CTX_PARAM
#define CLWARP_CTX_ARG
#endif

CLWARP_INLINE uint clwarp_segment_start(uint w) { return warp_lane_id() & ~(w - 1u); }

/* ---- Shuffles with a width: a segment is a warp of its own (unless the
 * backend has its own, like nv's PTX segments). */
#ifndef CLWARP_HAS_WIDTH_SHUFFLES
#define CLWARP_GEN_SHUFFLES(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD T CLWARP_FN(warp_shuffle)(CLWARP_CTX_PARAM T v, uint src_lane, uint width) CLWARP_WIDTH_CHECK \
	{ \
		uint w = clwarp_width(width); \
		return warp_shuffle(v, clwarp_segment_start(w) | (src_lane & (w - 1u))); \
	} \
	CLWARP_OVERLOAD T CLWARP_FN(warp_broadcast)(CLWARP_CTX_PARAM T v, uint src_lane, uint width) CLWARP_WIDTH_CHECK \
	{ \
		uint w = clwarp_width(width); \
		return warp_shuffle(v, clwarp_segment_start(w) | (src_lane & (w - 1u))); \
	} \
	CLWARP_OVERLOAD T CLWARP_FN(warp_shuffle_down)(CLWARP_CTX_PARAM T v, uint delta, uint width) CLWARP_WIDTH_CHECK \
	{ \
		uint w = clwarp_width(width); \
		T r = warp_shuffle_down(v, delta); \
		return delta < w - (warp_lane_id() & (w - 1u)) ? r : v; \
	} \
	CLWARP_OVERLOAD T CLWARP_FN(warp_shuffle_up)(CLWARP_CTX_PARAM T v, uint delta, uint width) CLWARP_WIDTH_CHECK \
	{ \
		uint w = clwarp_width(width); \
		T r = warp_shuffle_up(v, delta); \
		return delta <= (warp_lane_id() & (w - 1u)) ? r : v; \
	} \
	CLWARP_OVERLOAD T CLWARP_FN(warp_shuffle_xor)(CLWARP_CTX_PARAM T v, uint mask, uint width) CLWARP_WIDTH_CHECK \
	{ \
		T r = warp_shuffle_xor(v, mask); \
		return mask < clwarp_width(width) ? r : v; \
	}
CLWARP_TYPES(CLWARP_GEN_SHUFFLES)
#endif

/* ---- Reductions and scans of any associative OP over a segment, in lane
 * order (OP need not commute), over the shuffles. Loops over a segment's
 * steps run to CLWARP_SEGMENT_STEPS(w) (common.cl). The bodies are macros
 * of their own so that a backend with a better way for some types (local:
 * one fold in local memory for values of one slot) can use them for the
 * rest; such a backend defines CLWARP_GEN_REDUCE and CLWARP_GEN_SCAN. */

/* xor butterfly with growing masks: after the step with mask m each lane
 * holds the OP of its aligned block of 2m lanes, and both partners compute
 * OP(lower, upper), so every lane gets the same bits. */
#define CLWARP_SHFL_REDUCE_BODY(T, OP) \
	uint w = clwarp_width(width), lane = warp_lane_id(); \
	for (uint m = 1u; m < CLWARP_SEGMENT_STEPS(w); m <<= 1) { \
		T other = warp_shuffle_xor(v, m); \
		T r = (lane & m) ? OP(other, v) : OP(v, other); \
		v = m < w ? r : v; \
	} \
	return v;

/* Kogge-Stone over shuffle_up, inside the segment. */
#define CLWARP_SHFL_INCLUSIVE_BODY(T, OP) \
	uint w = clwarp_width(width), seg_lane = warp_lane_id() & (w - 1u); \
	for (uint d = 1u; d < CLWARP_SEGMENT_STEPS(w); d <<= 1) { \
		T t = warp_shuffle_up(v, d); \
		v = d < w && seg_lane >= d ? OP(t, v) : v; \
	} \
	return v;

#define CLWARP_SHFL_EXCLUSIVE_BODY(FN_INCLUSIVE, T, IDENTITY) \
	uint w = clwarp_width(width); \
	T r = warp_shuffle_up(FN_INCLUSIVE(CLWARP_CTX_ARG v, width), 1u); \
	return (warp_lane_id() & (w - 1u)) == 0u ? (T)(IDENTITY) : r;

#ifndef CLWARP_GEN_REDUCE
#define CLWARP_GEN_REDUCE(FN, T, OP) \
	CLWARP_OVERLOAD T FN(CLWARP_CTX_PARAM T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		CLWARP_SHFL_REDUCE_BODY(T, OP) \
	}

#define CLWARP_GEN_SCAN(FN_INCLUSIVE, FN_EXCLUSIVE, T, OP, IDENTITY) \
	CLWARP_OVERLOAD T FN_INCLUSIVE(CLWARP_CTX_PARAM T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		CLWARP_SHFL_INCLUSIVE_BODY(T, OP) \
	} \
	CLWARP_OVERLOAD T FN_EXCLUSIVE(CLWARP_CTX_PARAM T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		CLWARP_SHFL_EXCLUSIVE_BODY(FN_INCLUSIVE, T, IDENTITY) \
	}
#endif

/* The forms without a width: the whole warp. */
#define CLWARP_GEN_FULL_WIDTH_SCANS(FN_INCLUSIVE, FN_EXCLUSIVE, T) \
	CLWARP_OVERLOAD T FN_INCLUSIVE(CLWARP_CTX_PARAM T v) \
	{ \
		return FN_INCLUSIVE(CLWARP_CTX_ARG v, (uint)CLWARP_WARP_SIZE); \
	} \
	CLWARP_OVERLOAD T FN_EXCLUSIVE(CLWARP_CTX_PARAM T v) \
	{ \
		return FN_EXCLUSIVE(CLWARP_CTX_ARG v, (uint)CLWARP_WARP_SIZE); \
	}
#define CLWARP_GEN_FULL_WIDTH(FN_REDUCE, FN_INCLUSIVE, FN_EXCLUSIVE, T) \
	CLWARP_OVERLOAD T FN_REDUCE(CLWARP_CTX_PARAM T v) \
	{ \
		return FN_REDUCE(CLWARP_CTX_ARG v, (uint)CLWARP_WARP_SIZE); \
	} \
	CLWARP_GEN_FULL_WIDTH_SCANS(FN_INCLUSIVE, FN_EXCLUSIVE, T)

/* One operator, both forms: warp_reduce_NAME, warp_scan_inclusive_NAME,
 * warp_scan_exclusive_NAME. NAME is pasted at once, never passed on: PoCL
 * makes min and max object-like macros. */
#define CLWARP_GEN_OPERATOR(NAME, T, OP, IDENTITY) \
	CLWARP_GEN_OPERATOR_NAMED(warp_reduce_##NAME, warp_scan_inclusive_##NAME, \
		warp_scan_exclusive_##NAME, T, OP, IDENTITY)
#define CLWARP_GEN_OPERATOR_NAMED(REDUCE, INCLUSIVE, EXCLUSIVE, T, OP, IDENTITY) \
	CLWARP_GEN_REDUCE(CLWARP_FN(REDUCE), T, OP) \
	CLWARP_GEN_SCAN(CLWARP_FN(INCLUSIVE), CLWARP_FN(EXCLUSIVE), T, OP, IDENTITY) \
	CLWARP_GEN_FULL_WIDTH(CLWARP_FN(REDUCE), CLWARP_FN(INCLUSIVE), CLWARP_FN(EXCLUSIVE), T)

/* add, min, max: the forms without a width are the backend's own (local's
 * are the folds). With a width they take the generic path even when the
 * width is the whole warp: a branch between the two would put collectives
 * under a condition, and PoCL replicates a kernel's tail at every such
 * branch (a build that did not finish in 10 minutes on PoCL 6.0). */
#ifdef CLWARP_FOLD_COLLECTIVES
#define CLWARP_GEN_NATIVE_OPERATOR(NAME, T, OP, IDENTITY) \
	CLWARP_GEN_OPERATOR_NAMED(warp_reduce_##NAME, warp_scan_inclusive_##NAME, \
		warp_scan_exclusive_##NAME, T, OP, IDENTITY)
#elif defined(CLWARP_GENERIC_SCANS)
/* The backend keeps its whole-warp reductions; its scans are these. */
#define CLWARP_GEN_NATIVE_OPERATOR(NAME, T, OP, IDENTITY) \
	CLWARP_GEN_REDUCE(warp_reduce_##NAME, T, OP) \
	CLWARP_GEN_SCAN(warp_scan_inclusive_##NAME, warp_scan_exclusive_##NAME, T, OP, IDENTITY) \
	CLWARP_GEN_FULL_WIDTH_SCANS(warp_scan_inclusive_##NAME, warp_scan_exclusive_##NAME, T)
#else
#define CLWARP_GEN_NATIVE_OPERATOR(NAME, T, OP, IDENTITY) \
	CLWARP_GEN_REDUCE(warp_reduce_##NAME, T, OP) \
	CLWARP_GEN_SCAN(warp_scan_inclusive_##NAME, warp_scan_exclusive_##NAME, T, OP, IDENTITY)
#endif

/* mul and xor of the integer core types: the whole-warp reduction is the
 * backend's own where it has one (CLWARP_HAS_NATIVE_INT_REDUCE:
 * clwarp_native_reduce_mul/_xor(T), khr and intel with
 * cl_khr_subgroup_non_uniform_arithmetic), everything else generic. and
 * and or stay generic: their native forms were slower on Intel's CPU
 * runtime, the one implementation that has them (docs/design/cpu-sort.md). */
#ifdef CLWARP_HAS_NATIVE_INT_REDUCE
#define CLWARP_GEN_INT_OPERATOR(NAME, T, OP, IDENTITY) \
	CLWARP_GEN_REDUCE(warp_reduce_##NAME, T, OP) \
	CLWARP_GEN_SCAN(warp_scan_inclusive_##NAME, warp_scan_exclusive_##NAME, T, OP, IDENTITY) \
	CLWARP_GEN_FULL_WIDTH_SCANS(warp_scan_inclusive_##NAME, warp_scan_exclusive_##NAME, T) \
	CLWARP_OVERLOAD T warp_reduce_##NAME(T v) { return clwarp_native_reduce_##NAME(v); }
#else
#define CLWARP_GEN_INT_OPERATOR(NAME, T, OP, IDENTITY) CLWARP_GEN_OPERATOR(NAME, T, OP, IDENTITY)
#endif

/* mul by the kind of type, told apart by MIN_FN, pasted (never expanded:
 * PoCL makes min a macro): min for the integers, fmin for the floats. */
#define CLWARP_GEN_MUL_min(T) CLWARP_GEN_INT_OPERATOR(mul, T, CLWARP_MUL, 1)
#define CLWARP_GEN_MUL_fmin(T) CLWARP_GEN_OPERATOR(mul, T, CLWARP_MUL, 1)

#define CLWARP_GEN_OPERATORS(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_GEN_NATIVE_OPERATOR(add, T, CLWARP_ADD, 0) \
	CLWARP_GEN_NATIVE_OPERATOR(min, T, MIN_FN, MIN_ID) \
	CLWARP_GEN_NATIVE_OPERATOR(max, T, MAX_FN, MAX_ID) \
	CLWARP_GEN_MUL_##MIN_FN(T)
CLWARP_TYPES(CLWARP_GEN_OPERATORS)

#define CLWARP_GEN_BITWISE(T, BITS) \
	CLWARP_GEN_OPERATOR(and, T, CLWARP_AND, ~(T)0) \
	CLWARP_GEN_OPERATOR(or, T, CLWARP_OR, 0) \
	CLWARP_GEN_OPERATOR(xor, T, CLWARP_XOR, 0)
/* The core integer types' (types.cl's use CLWARP_GEN_BITWISE). */
#define CLWARP_GEN_BITWISE_CORE(T, BITS) \
	CLWARP_GEN_OPERATOR(and, T, CLWARP_AND, ~(T)0) \
	CLWARP_GEN_OPERATOR(or, T, CLWARP_OR, 0) \
	CLWARP_GEN_INT_OPERATOR(xor, T, CLWARP_XOR, 0)
/* A backend with its own 32-bit and/or/xor reductions over the whole warp
 * (nv: redux.sync) defines CLWARP_HAS_BITWISE_REDUCE_32 and those three;
 * everything else of the operators comes from here. */
#ifdef CLWARP_HAS_BITWISE_REDUCE_32
#define CLWARP_GEN_BITWISE_NATIVE_OP(NAME, T, OP, IDENTITY) \
	CLWARP_GEN_REDUCE(warp_reduce_##NAME, T, OP) \
	CLWARP_GEN_SCAN(warp_scan_inclusive_##NAME, warp_scan_exclusive_##NAME, T, OP, IDENTITY) \
	CLWARP_GEN_FULL_WIDTH_SCANS(warp_scan_inclusive_##NAME, warp_scan_exclusive_##NAME, T)
#define CLWARP_GEN_BITWISE_NATIVE(T, BITS) \
	CLWARP_GEN_BITWISE_NATIVE_OP(and, T, CLWARP_AND, ~(T)0) \
	CLWARP_GEN_BITWISE_NATIVE_OP(or, T, CLWARP_OR, 0) \
	CLWARP_GEN_BITWISE_NATIVE_OP(xor, T, CLWARP_XOR, 0)
CLWARP_INT_TYPES_32(CLWARP_GEN_BITWISE_NATIVE)
#else
CLWARP_INT_TYPES_32(CLWARP_GEN_BITWISE_CORE)
#endif
CLWARP_INT_TYPES_64(CLWARP_GEN_BITWISE_CORE)

/* User-defined operators (docs/warp-api.md): OP(a, b) is any associative
 * function or macro; values combine in lane order. On local the functions
 * take the scratch pointer first, and the engine's source rewrite passes it
 * at every call of warp_reduce_NAME and the two scans. */
#define CLWARP_DEFINE_WARP_OP(NAME, T, OP, IDENTITY) \
	CLWARP_GEN_REDUCE(warp_reduce_##NAME, T, OP) \
	CLWARP_GEN_SCAN(warp_scan_inclusive_##NAME, warp_scan_exclusive_##NAME, T, OP, IDENTITY) \
	CLWARP_GEN_FULL_WIDTH(warp_reduce_##NAME, warp_scan_inclusive_##NAME, warp_scan_exclusive_##NAME, T)

/* ---- Votes with a width: the segment's lanes in bits 0 .. width-1. */
CLWARP_OVERLOAD ulong CLWARP_FN(warp_ballot)(CLWARP_CTX_PARAM int pred, uint width) CLWARP_WIDTH_CHECK
{
	uint w = clwarp_width(width);
	return (warp_ballot(pred) >> clwarp_segment_start(w)) & clwarp_segment_mask(w);
}

CLWARP_OVERLOAD int CLWARP_FN(warp_all)(CLWARP_CTX_PARAM int pred, uint width) CLWARP_WIDTH_CHECK
{
	return warp_ballot(pred, width) == clwarp_segment_mask(clwarp_width(width));
}

CLWARP_OVERLOAD int CLWARP_FN(warp_any)(CLWARP_CTX_PARAM int pred, uint width) CLWARP_WIDTH_CHECK
{
	return warp_ballot(pred, width) != 0ul;
}

CLWARP_OVERLOAD int CLWARP_FN(warp_none)(CLWARP_CTX_PARAM int pred, uint width) CLWARP_WIDTH_CHECK
{
	return warp_ballot(pred, width) == 0ul;
}

CLWARP_OVERLOAD int CLWARP_FN(warp_none)(CLWARP_CTX_PARAM int pred)
{
	return !warp_any(pred);
}

/* ---- Match: values compare as bits (floats bitwise: NaN matches its own
 * bits, -0.0 does not match +0.0). clwarp_match_bits(bits) gives the
 * full-warp mask of the lanes holding the caller's bits; without a
 * backend's own, every lane broadcasts in turn. */
#ifndef CLWARP_HAS_MATCH_CORE
#define CLWARP_GEN_MATCH_CORE(BITS) \
	CLWARP_OVERLOAD ulong clwarp_match_bits(BITS bits) \
	{ \
		ulong mask = 0ul; \
		for (uint i = 0u; i < CLWARP_WARP_SIZE; i++) \
			mask |= (ulong)(warp_broadcast(bits, i) == bits) << i; \
		return mask; \
	}
CLWARP_GEN_MATCH_CORE(uint)
CLWARP_GEN_MATCH_CORE(ulong)
#endif

/* match_all of the whole warp: the backend's own (nv: match.all.sync), or
 * a shuffle from lane 0 and a vote. */
#ifdef CLWARP_HAS_MATCH_ALL_CORE
#define CLWARP_MATCH_ALL_FULL(BITS, v) \
	return clwarp_match_all_bits(CLWARP_TO_BITS(BITS, v));
#else
#define CLWARP_MATCH_ALL_FULL(BITS, v) \
	BITS first = CLWARP_TO_BITS(BITS, warp_shuffle(v, 0u)); \
	return warp_all(first == CLWARP_TO_BITS(BITS, v));
#endif

#define CLWARP_GEN_MATCH(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD ulong CLWARP_FN(warp_match_any)(CLWARP_CTX_PARAM T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		uint w = clwarp_width(width); \
		ulong all = clwarp_match_bits(CLWARP_CTX_ARG CLWARP_TO_BITS(BITS, v)); \
		return (all >> clwarp_segment_start(w)) & clwarp_segment_mask(w); \
	} \
	CLWARP_OVERLOAD ulong CLWARP_FN(warp_match_any)(CLWARP_CTX_PARAM T v) \
	{ \
		return clwarp_match_bits(CLWARP_CTX_ARG CLWARP_TO_BITS(BITS, v)); \
	} \
	CLWARP_OVERLOAD int CLWARP_FN(warp_match_all)(CLWARP_CTX_PARAM T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		BITS first = CLWARP_TO_BITS(BITS, warp_shuffle(v, 0u, width)); \
		return warp_all(first == CLWARP_TO_BITS(BITS, v), width); \
	} \
	CLWARP_OVERLOAD int CLWARP_FN(warp_match_all)(CLWARP_CTX_PARAM T v) \
	{ \
		CLWARP_MATCH_ALL_FULL(BITS, v) \
	}
CLWARP_TYPES(CLWARP_GEN_MATCH)
