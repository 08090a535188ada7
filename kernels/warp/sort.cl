/* libclwarp warp sort and exchange, written once over the public warp API
 * (warp_shuffle_xor, warp_shuffle), so every backend has them. The engine
 * puts this file after generic.cl. CLWARP_FN, CLWARP_CTX_PARAM and
 * CLWARP_CTX_ARG are generic.cl's (local's functions take the scratch
 * pointer first; the public names are macros in local.cl).
 *
 * Every lane runs the same sequence of warp calls whatever its data: the
 * loops below have trip counts that depend only on W, the width or ITEMS. */

/* ---- Sort keys: an unsigned integer of the same size whose order is the
 * sort order. Integers: the sign bit flipped. Floats: IEEE total order
 * (-0.0 before +0.0), every NaN mapped to the largest key (after +inf);
 * the bits are tested, not isnan(), so -cl-finite-math-only keeps them.
 * A float's sign picks its mask by a shift, not a select: Intel's CPU
 * compiler (2026.2) sorted descending float and double keys wrong on the
 * local backend with `sign ? ~b : b | sign` (docs/intel-opencl.md). */
CLWARP_OVERLOAD uint clwarp_sort_key(uint v) { return v; }
CLWARP_OVERLOAD uint clwarp_sort_key(int v) { return as_uint(v) ^ 0x80000000u; }
CLWARP_OVERLOAD ulong clwarp_sort_key(ulong v) { return v; }
CLWARP_OVERLOAD ulong clwarp_sort_key(long v) { return as_ulong(v) ^ 0x8000000000000000ul; }
CLWARP_OVERLOAD uint clwarp_sort_key(float v)
{
	uint b = as_uint(v), k = b ^ ((uint)(as_int(b) >> 31) | 0x80000000u);
	return (b & 0x7fffffffu) > 0x7f800000u ? 0xffffffffu : k;
}
CLWARP_IF_FP64(
CLWARP_OVERLOAD ulong clwarp_sort_key(double v)
{
	ulong b = as_ulong(v), k = b ^ ((ulong)(as_long(b) >> 63) | 0x8000000000000000ul);
	return (b & 0x7ffffffffffffffful) > 0x7ff0000000000000ul ? ~0ul : k;
})

/* The 1- and 2-byte types of types.cl (where the program names them):
 * their keys widen to a uint. */
CLWARP_IF_USED(uchar, CLWARP_OVERLOAD uint clwarp_sort_key(uchar v) { return v; })
CLWARP_IF_USED(char, CLWARP_OVERLOAD uint clwarp_sort_key(char v) { return as_uchar(v) ^ 0x80u; })
CLWARP_IF_USED(ushort, CLWARP_OVERLOAD uint clwarp_sort_key(ushort v) { return v; })
CLWARP_IF_USED(short, CLWARP_OVERLOAD uint clwarp_sort_key(short v) { return as_ushort(v) ^ 0x8000u; })
CLWARP_IF_FP16(CLWARP_IF_USED(half,
CLWARP_OVERLOAD uint clwarp_sort_key(half v)
{
	uint b = as_ushort(v);
	return (b & 0x7fffu) > 0x7c00u ? 0xffffu : (b & 0x8000u) ? ~b & 0xffffu : b | 0x8000u;
}))

/* X(T, BITS, ...) over them, as CLWARP_TYPES for the core types. */
#define CLWARP_SORT_SMALL_TYPES(X) \
	CLWARP_IF_USED(char, X(char, uint, 0, 0, min, max)) \
	CLWARP_IF_USED(uchar, X(uchar, uint, 0, 0, min, max)) \
	CLWARP_IF_USED(short, X(short, uint, 0, 0, min, max)) \
	CLWARP_IF_USED(ushort, X(ushort, uint, 0, 0, min, max)) \
	CLWARP_IF_FP16(CLWARP_IF_USED(half, X(half, uint, 0, 0, fmin, fmax)))

/* ---- The network: a bitonic sort of (key, lane) pairs over the segments
 * of w lanes, with warp_shuffle_xor. The pairs are all different, so both
 * partners of a compare-exchange agree, and equal keys keep lane order
 * (stable). Returns the lane (of the warp) whose element lands on the
 * caller's place. Steps past the width run and are ignored
 * (CLWARP_SEGMENT_STEPS, common.cl): log2(W) (log2(W) + 1) / 2 steps. */

#if defined(CLWARP_BACKEND_LOCAL) && !defined(CLWARP_SORT_NETWORK)
/* Local: each lane counts the keys of its segment that go before its own
 * (smaller, or equal on a lower lane), which is its rank, and writes its
 * lane number at that place: 4 barriers, where the network takes two per
 * step (30 at W = 32, 60 for 64-bit keys). -DCLWARP_SORT_NETWORK keeps the
 * network (the tests build it that way too). */
CLWARP_OVERLOAD uint clwarp_sort_network(local ulong *__clwarp_scratch, ulong key, uint w)
{
	uint lid = clwarp_linear_local_id(), seg_lane = lid & CLWARP_LANE_MASK & (w - 1u);
	local ulong *seg = __clwarp_scratch + (lid - seg_lane);
	uint rank = 0u;
	__clwarp_scratch[lid] = key;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint j = 0u; j < w; j++) {
		ulong other = seg[j];
		rank += other < key || (other == key && j < seg_lane);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	seg[min(rank, w - 1u)] = lid & CLWARP_LANE_MASK;
	barrier(CLK_LOCAL_MEM_FENCE);
	uint src = (uint)__clwarp_scratch[lid];
	barrier(CLK_LOCAL_MEM_FENCE);
	return src;
}

CLWARP_OVERLOAD uint clwarp_sort_network(local ulong *__clwarp_scratch, uint key, uint w)
{
	return clwarp_sort_network(__clwarp_scratch, (ulong)key, w);
}
#else
/* 32-bit keys: key and lane in one ulong, one shuffle per step. */
CLWARP_OVERLOAD uint clwarp_sort_network(CLWARP_CTX_PARAM uint key, uint w)
{
	uint lane = warp_lane_id(), seg_lane = lane & (w - 1u);
	ulong c = ((ulong)key << 32) | lane;
	for (uint k = 2u; k <= CLWARP_SEGMENT_STEPS(w); k <<= 1) {
		for (uint j = k >> 1; j > 0u; j >>= 1) {
			ulong other = warp_shuffle_xor(c, j);
			int keep_min = ((lane & j) == 0u) == ((seg_lane & k) == 0u);
			ulong r = keep_min ? min(c, other) : max(c, other);
			c = k <= w ? r : c;
		}
	}
	return (uint)c & 63u;
}

/* 64-bit keys: key and lane travel separately, two shuffles per step. */
CLWARP_OVERLOAD uint clwarp_sort_network(CLWARP_CTX_PARAM ulong key, uint w)
{
	uint lane = warp_lane_id(), seg_lane = lane & (w - 1u), src = lane;
	for (uint k = 2u; k <= CLWARP_SEGMENT_STEPS(w); k <<= 1) {
		for (uint j = k >> 1; j > 0u; j >>= 1) {
			ulong other_key = warp_shuffle_xor(key, j);
			uint other_src = warp_shuffle_xor(src, j);
			int keep_min = ((lane & j) == 0u) == ((seg_lane & k) == 0u);
			int other_less = other_key < key || (other_key == key && other_src < src);
			int take = k <= w && keep_min == other_less;
			key = take ? other_key : key;
			src = take ? other_src : src;
		}
	}
	return src;
}
#endif

/* clwarp_sort_source(key, descending, width): the source lane of the
 * caller's place. Descending sorts the complemented keys: the exact reverse
 * order of the keys (NaNs first), lane order among equal keys. */
#define CLWARP_SORT_SOURCE(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD uint clwarp_sort_source(CLWARP_CTX_PARAM T key, uint descending, uint width) \
	{ \
		BITS k = clwarp_sort_key(key); \
		return clwarp_sort_network(CLWARP_CTX_ARG descending ? ~k : k, clwarp_width(width)); \
	}
CLWARP_TYPES(CLWARP_SORT_SOURCE)
CLWARP_SORT_SMALL_TYPES(CLWARP_SORT_SOURCE)

/* ---- warp_sort, warp_sort_descending: the key moves by one warp_shuffle
 * from its source lane, so values arrive bit for bit (NaN payloads). */
#define CLWARP_SORT_FNS(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD T CLWARP_FN(warp_sort)(CLWARP_CTX_PARAM T key, uint width) CLWARP_WIDTH_CHECK \
	{ \
		return warp_shuffle(key, clwarp_sort_source(CLWARP_CTX_ARG key, 0u, width)); \
	} \
	CLWARP_OVERLOAD T CLWARP_FN(warp_sort)(CLWARP_CTX_PARAM T key) \
	{ \
		return warp_shuffle(key, clwarp_sort_source(CLWARP_CTX_ARG key, 0u, (uint)CLWARP_WARP_SIZE)); \
	} \
	CLWARP_OVERLOAD T CLWARP_FN(warp_sort_descending)(CLWARP_CTX_PARAM T key, uint width) CLWARP_WIDTH_CHECK \
	{ \
		return warp_shuffle(key, clwarp_sort_source(CLWARP_CTX_ARG key, 1u, width)); \
	} \
	CLWARP_OVERLOAD T CLWARP_FN(warp_sort_descending)(CLWARP_CTX_PARAM T key) \
	{ \
		return warp_shuffle(key, clwarp_sort_source(CLWARP_CTX_ARG key, 1u, (uint)CLWARP_WARP_SIZE)); \
	} \
	CLWARP_OVERLOAD uint clwarp_sort_pairs_key(CLWARP_CTX_PARAM uint descending, T *key, void *value, uint width) \
		CLWARP_WIDTH_CHECK \
	{ \
		uint src = clwarp_sort_source(CLWARP_CTX_ARG *key, descending, width); \
		*key = warp_shuffle(*key, src); \
		return src; \
	} \
	CLWARP_OVERLOAD uint clwarp_sort_pairs_key(CLWARP_CTX_PARAM uint descending, T *key, void *value) \
	{ \
		return clwarp_sort_pairs_key(CLWARP_CTX_ARG descending, key, value, (uint)CLWARP_WARP_SIZE); \
	} \
	CLWARP_OVERLOAD void clwarp_sort_pairs_move(CLWARP_CTX_PARAM uint src, T *value, uint width) \
	{ \
		*value = warp_shuffle(*value, src); \
	} \
	CLWARP_OVERLOAD void clwarp_sort_pairs_move(CLWARP_CTX_PARAM uint src, T *value) \
	{ \
		*value = warp_shuffle(*value, src); \
	}
CLWARP_TYPES(CLWARP_SORT_FNS)
CLWARP_SORT_SMALL_TYPES(CLWARP_SORT_FNS)

/* warp_sort_pairs(T *key, V *value[, uint width]): T and V any two types
 * of the list, without a function per pair: the key's sort gives the source
 * lane, and the value follows it with one shuffle. A macro, so the value
 * pointer (and the width) are evaluated twice. */
#define warp_sort_pairs(key, ...) \
	clwarp_sort_pairs_move(CLWARP_CTX_ARG clwarp_sort_pairs_key(CLWARP_CTX_ARG 0u, key, __VA_ARGS__), __VA_ARGS__)
#define warp_sort_pairs_descending(key, ...) \
	clwarp_sort_pairs_move(CLWARP_CTX_ARG clwarp_sort_pairs_key(CLWARP_CTX_ARG 1u, key, __VA_ARGS__), __VA_ARGS__)

/* ---- Exchange (CUB's WarpExchange) of ITEMS private values per lane over
 * a segment of w lanes: blocked (lane l holds elements l*ITEMS ..
 * l*ITEMS+ITEMS-1) to striped (lane l holds l, l+w, l+2w, ...) and back.
 *
 * ITEMS rounds of one shuffle each. In round r lane p sends its slot
 * (r + p / (w/g)) % ITEMS, g = gcd(ITEMS, w): that spreads the round's
 * elements p*ITEMS + slot over all w lanes, one each, so every lane
 * receives exactly one. The receiver solves for its sender with the
 * inverse of ITEMS/g modulo w/g. Choosing a slot by a lane-dependent index
 * is a chain of selects (ITEMS per round), which keeps the array in
 * registers where ITEMS is a constant. */
#define CLWARP_EXCHANGE_MAX_ITEMS 32

#if defined(__has_attribute)
#if __has_attribute(diagnose_if)
#define CLWARP_ITEMS_CHECK __attribute__((diagnose_if(items_per_lane == 0u || \
	items_per_lane > CLWARP_EXCHANGE_MAX_ITEMS, "ITEMS must be from 1 to 32", "error")))
#endif
#endif
#ifndef CLWARP_ITEMS_CHECK
#define CLWARP_ITEMS_CHECK
#endif

/* x^-1 modulo 2^32 for odd x (Newton: each step doubles the right bits). */
CLWARP_INLINE uint clwarp_inverse_odd(uint x)
{
	uint y = x;
	for (uint i = 0u; i < 5u; i++)
		y *= 2u - x * y;
	return y;
}

/* The round's plan for the lane at segment lane l: receiving (blocked to
 * striped), the sender's segment lane and the slot the element takes;
 * sending (striped to blocked), which lane it goes to and from which slot. */
CLWARP_INLINE uint2 clwarp_exchange_peer(uint l, uint r, uint n, uint w)
{
	uint g = min(n & (0u - n), w), wq = w / g;
	uint inv = clwarp_inverse_odd(n / g) & (wq - 1u);
	uint a = (l - r) & (g - 1u), t = (r + a) % n;
	uint b = ((l / g - t / g) * inv) & (wq - 1u);
	uint p = a * wq + b;
	return (uint2)(p, (p * n + t) / w);
}

/* The slot lane p sends (blocked to striped) or fills (striped to blocked) in round r. */
CLWARP_INLINE uint clwarp_exchange_slot(uint p, uint r, uint n, uint w)
{
	uint g = min(n & (0u - n), w);
	return (r + p / (w / g)) % n;
}

/* The lane, on the local backend through a volatile private: Intel's CPU
 * compiler (2026.2) crashes (SIGSEGV, sycl-kernel-reduce-cross-barrier-values)
 * where it copies the lane arithmetic past the barriers of a kernel with
 * many exchanges; it copies no load. One load per call, beside two
 * barriers per round (contrib/driver-bugs/intel-local-sort-crash/). */
CLWARP_INLINE uint clwarp_exchange_lane(void)
{
#if defined(CLWARP_BACKEND_LOCAL)
	volatile uint lane = warp_lane_id();
	return lane;
#else
	return warp_lane_id();
#endif
}

#define CLWARP_EXCHANGE_FNS(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD void CLWARP_FN(warp_exchange_blocked_to_striped)(CLWARP_CTX_PARAM T *items, \
		uint items_per_lane, uint width) CLWARP_WIDTH_CHECK CLWARP_ITEMS_CHECK \
	{ \
		uint n = min(items_per_lane, (uint)CLWARP_EXCHANGE_MAX_ITEMS), w = clwarp_width(width); \
		uint lane = clwarp_exchange_lane(), l = lane & (w - 1u), start = lane - l; \
		T out[CLWARP_EXCHANGE_MAX_ITEMS]; \
		for (uint k = 0u; k < n; k++) \
			out[k] = items[k]; \
		for (uint r = 0u; r < n; r++) { \
			uint s = clwarp_exchange_slot(l, r, n, w); \
			T v = items[0]; \
			for (uint k = 1u; k < n; k++) \
				v = k == s ? items[k] : v; \
			uint2 peer = clwarp_exchange_peer(l, r, n, w); \
			T got = warp_shuffle(v, start + peer.x); \
			for (uint k = 0u; k < n; k++) \
				out[k] = k == peer.y ? got : out[k]; \
		} \
		for (uint k = 0u; k < n; k++) \
			items[k] = out[k]; \
	} \
	CLWARP_OVERLOAD void CLWARP_FN(warp_exchange_blocked_to_striped)(CLWARP_CTX_PARAM T *items, \
		uint items_per_lane) CLWARP_ITEMS_CHECK \
	{ \
		CLWARP_FN(warp_exchange_blocked_to_striped)(CLWARP_CTX_ARG items, items_per_lane, \
			(uint)CLWARP_WARP_SIZE); \
	} \
	CLWARP_OVERLOAD void CLWARP_FN(warp_exchange_striped_to_blocked)(CLWARP_CTX_PARAM T *items, \
		uint items_per_lane, uint width) CLWARP_WIDTH_CHECK CLWARP_ITEMS_CHECK \
	{ \
		uint n = min(items_per_lane, (uint)CLWARP_EXCHANGE_MAX_ITEMS), w = clwarp_width(width); \
		uint lane = clwarp_exchange_lane(), l = lane & (w - 1u), start = lane - l; \
		T out[CLWARP_EXCHANGE_MAX_ITEMS]; \
		for (uint k = 0u; k < n; k++) \
			out[k] = items[k]; \
		for (uint r = 0u; r < n; r++) { \
			uint2 peer = clwarp_exchange_peer(l, r, n, w); \
			T v = items[0]; \
			for (uint k = 1u; k < n; k++) \
				v = k == peer.y ? items[k] : v; \
			uint s = clwarp_exchange_slot(l, r, n, w); \
			T got = warp_shuffle(v, start + (l * n + s) % w); \
			for (uint k = 0u; k < n; k++) \
				out[k] = k == s ? got : out[k]; \
		} \
		for (uint k = 0u; k < n; k++) \
			items[k] = out[k]; \
	} \
	CLWARP_OVERLOAD void CLWARP_FN(warp_exchange_striped_to_blocked)(CLWARP_CTX_PARAM T *items, \
		uint items_per_lane) CLWARP_ITEMS_CHECK \
	{ \
		CLWARP_FN(warp_exchange_striped_to_blocked)(CLWARP_CTX_ARG items, items_per_lane, \
			(uint)CLWARP_WARP_SIZE); \
	}
CLWARP_TYPES(CLWARP_EXCHANGE_FNS)
CLWARP_SORT_SMALL_TYPES(CLWARP_EXCHANGE_FNS)
