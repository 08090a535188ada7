/* libclwarp algorithms: helpers shared by reduce.cl, scan.cl and rows.cl.
 *
 * The library puts these defines before this file (see variant_source in src/algo_variants.c):
 *   T, T_VEC, VEC          element type, its VEC-wide vector type, VEC (16 bytes:
 *                          2 for 8-byte types, 4, 8, 16 for 1-byte ones)
 *   ID                     the identity of OP
 *   OP(a, b)               the combining operation
 *   WARP_REDUCE(v), WARP_SCAN_EXCL(v)   the matching warp_* calls
 *   WG                     work-group size (a multiple of CLWARP_WARP_SIZE)
 *   ITEMS_K                vectors per work-item in a scan tile
 *   REDUCE_UNROLL          vector loads in flight per work-item in clwarp_reduce
 * CLWARP_ALGO_WARP_ALONE where a warp may run warp calls on its own (every
 * backend but local; enabled on nv: the look-back, the histogram's votes),
 * and CLWARP_ALGO_SPLIT_LOOKBACK to keep state and value apart for every type
 * (a tuning choice, for comparison; see tile_publish).
 *
 * Warp calls: on the local backend every warp_* function is a work-group
 * barrier, so every helper here that calls one is called by the whole
 * work-group with the same trip counts; divergence is only ever in code
 * without warp calls. */

#define WARPS (WG / CLWARP_WARP_SIZE)

/*
 * This work-item's lane and warp. The algorithms launch 1-D work-groups, so
 * on the local backend they are get_local_id(0) % W and / W, the values
 * warp_lane_id() and warp_id() give there, computed without the 3-D linear
 * local id. A workaround for PoCL 6.0 (LLVM 18): some builds keep a value
 * derived from the local id once per work-group instead of once per
 * work-item when it lives across a barrier, so every work-item then reads
 * the last work-item's value (partition at width 64 rejected every element
 * of a partial tile: count 0). Which build goes wrong depends on the heap
 * layout of the compiling process, not on the source (docs/algorithms.md).
 * clwarp_select also keeps such values short and few (scan.cl).
 */
#ifdef CLWARP_BACKEND_LOCAL
#define ALGO_LANE() ((uint)get_local_id(0) % CLWARP_WARP_SIZE)
#define ALGO_WARP() ((uint)get_local_id(0) / CLWARP_WARP_SIZE)
#else
#define ALGO_LANE() warp_lane_id()
#define ALGO_WARP() warp_id()
#endif
#define TILE (WG * ITEMS_K * VEC)
#define ITEMS (ITEMS_K * VEC)

/* Tile loads (scan, compaction, runs, histogram): full tiles with vector
 * loads, the last one element by element, padded with `pad`. Element
 * (k, c) of work-item (warp w, lane l) is tile element
 * ((w * ITEMS_K + k) * W + l) * VEC + c: each load instruction of a warp
 * reads W * VEC consecutive elements.
 *
 * The loops are unrolled (GPU compilers do that anyway) so that neither
 * branch holds a loop: a workaround for PoCL 5.0/6.0's loop work-group
 * method (docs/algorithms.md, "Kernels PoCL compiles right"). PoCL puts implicit
 * barriers into loops with a uniform trip count; inside this uniform
 * if/else they made both branches end in barriers, so PoCL's barrier tail
 * replication copied everything after the join (block scan, look-back,
 * stores) once per branch. Its uniformity analysis caches verdicts by
 * instruction address and is never invalidated, so a copied instruction
 * could inherit the "uniform" verdict of a deleted one at the same heap
 * address; such a value is kept once per work-group, not per work-item,
 * and the copy for partial tiles went wrong in some builds.
 *
 * DEFINE_LOAD_TILE(NAME, TY, TY_VEC) defines NAME for elements of TY
 * (VEC of them in a TY_VEC); the kernel files name the one for T
 * load_tile. Its name is made by the macro, so it takes the warp context
 * by hand (docs/warp-api.md, "Helper functions"). */
CLWARP_INLINE ulong tile_offset(uint k)
{
	return ((ulong)(ALGO_WARP() * ITEMS_K + k) * CLWARP_WARP_SIZE + ALGO_LANE()) * VEC;
}

#define DEFINE_LOAD_TILE(NAME, TY, TY_VEC) \
	CLWARP_INLINE void NAME(global const TY *in, ulong base, ulong n, TY pad, TY *a, \
				CLWARP_WARP_PARAM) \
	{ \
		if (base + TILE <= n) { \
			global const TY_VEC *v = (global const TY_VEC *)(in + base); \
			_Pragma("unroll") \
			for (uint k = 0; k < ITEMS_K; k++) { \
				TY_VEC x = v[tile_offset(k) / VEC]; \
				VEC_SPLIT(a + k * VEC, x); \
			} \
		} else { \
			_Pragma("unroll") \
			for (uint k = 0; k < ITEMS_K; k++) { \
				ulong o = base + tile_offset(k); \
				_Pragma("unroll") \
				for (uint c = 0; c < VEC; c++) \
					a[k * VEC + c] = o + c < n ? in[o + c] : pad; \
			} \
		} \
	}

/* Look-back status words: (epoch << 2) | state; an older epoch reads as "not yet". */
#define STATE_AGGREGATE 1u
#define STATE_PREFIX 2u

/* Vector <-> private array of VEC elements (8 and 16: 2- and 1-byte types). */
#if VEC == 16
#define VEC_SPLIT(dst, v) do { \
		(dst)[0] = (v).s0; (dst)[1] = (v).s1; (dst)[2] = (v).s2; (dst)[3] = (v).s3; \
		(dst)[4] = (v).s4; (dst)[5] = (v).s5; (dst)[6] = (v).s6; (dst)[7] = (v).s7; \
		(dst)[8] = (v).s8; (dst)[9] = (v).s9; (dst)[10] = (v).sa; (dst)[11] = (v).sb; \
		(dst)[12] = (v).sc; (dst)[13] = (v).sd; (dst)[14] = (v).se; (dst)[15] = (v).sf; \
	} while (0)
#define VEC_JOIN(src) ((T_VEC)((src)[0], (src)[1], (src)[2], (src)[3], (src)[4], (src)[5], \
			       (src)[6], (src)[7], (src)[8], (src)[9], (src)[10], (src)[11], \
			       (src)[12], (src)[13], (src)[14], (src)[15]))
#elif VEC == 8
#define VEC_SPLIT(dst, v) do { \
		(dst)[0] = (v).s0; (dst)[1] = (v).s1; (dst)[2] = (v).s2; (dst)[3] = (v).s3; \
		(dst)[4] = (v).s4; (dst)[5] = (v).s5; (dst)[6] = (v).s6; (dst)[7] = (v).s7; \
	} while (0)
#define VEC_JOIN(src) ((T_VEC)((src)[0], (src)[1], (src)[2], (src)[3], (src)[4], (src)[5], \
			       (src)[6], (src)[7]))
#elif VEC == 4
#define VEC_SPLIT(dst, v) do { (dst)[0] = (v).s0; (dst)[1] = (v).s1; (dst)[2] = (v).s2; (dst)[3] = (v).s3; } while (0)
#define VEC_JOIN(src) ((T_VEC)((src)[0], (src)[1], (src)[2], (src)[3]))
#elif VEC == 2
#define VEC_SPLIT(dst, v) do { (dst)[0] = (v).s0; (dst)[1] = (v).s1; } while (0)
#define VEC_JOIN(src) ((T_VEC)((src)[0], (src)[1]))
#else
#error "VEC must be 2, 4, 8 or 16"
#endif

/*
 * Block scan of a tile held in registers: a[k * NV + c] is element
 * ((warp_id * NK + k) * W + lane) * NV + c of the tile (W = warp width).
 * Each warp scans its NK chunks of W * NV consecutive elements, then the
 * warp totals are combined in local memory. On return a[] holds the
 * inclusive (or exclusive) scan within the tile; the result is the tile's
 * total, the same on every work-item. sm: WARPS elements of local memory.
 *
 * No per-work-item value lives across a barrier here but the array (the
 * lane and warp are taken afresh after each, and the warps before this
 * one are added in before the second): PoCL 6.0 sometimes keeps such a
 * value once per work-group (docs/algorithms.md, "Kernels PoCL compiles right"); one
 * build of the runs kernel lost `before` that way, and every warp's
 * elements got the last warp's offset.
 *
 * The loops over the warps' totals and over a[] are unrolled: PoCL 6.0
 * gives a loop with a uniform trip count and no barrier implicit barriers
 * (ImplicitLoopBarriers), so `before`, carried by the loop over the warps,
 * crossed one into the loop that adds it to a[] after all, and some builds
 * kept it once per work-group: every work-item added the last warp's
 * `before` (a float exclusive max scan of n = 1 gave in[0] as element 0;
 * 12 of 60 fresh builds of three such scans failed, 0 of 60 unrolled).
 */
#define DEFINE_BLOCK_SCAN(NAME, TY, OPF, IDV, WSCAN_EXCL, NK, NV) \
	CLWARP_INLINE TY NAME(TY *a, int inclusive, local TY *sm, CLWARP_WARP_PARAM) \
	{ \
		TY carry = IDV; \
		for (uint k = 0; k < (NK); k++) { \
			TY s = a[k * (NV)]; \
			for (uint c = 1; c < (NV); c++) \
				s = OPF(s, a[k * (NV) + c]); \
			TY ex = WSCAN_EXCL(s); \
			TY tot = warp_broadcast(OPF(ex, s), CLWARP_WARP_SIZE - 1u); \
			TY run = OPF(carry, ex); \
			for (uint c = 0; c < (NV); c++) { \
				TY nx = OPF(run, a[k * (NV) + c]); \
				a[k * (NV) + c] = inclusive ? nx : run; \
				run = nx; \
			} \
			carry = OPF(carry, tot); \
		} \
		if (ALGO_LANE() == 0) \
			sm[ALGO_WARP()] = carry; \
		barrier(CLK_LOCAL_MEM_FENCE); \
		TY before = IDV, total = IDV; \
		uint wid = ALGO_WARP(); \
		_Pragma("unroll") \
		for (uint w = 0; w < WARPS; w++) { \
			TY v = sm[w]; \
			before = w < wid ? OPF(before, v) : before; \
			total = OPF(total, v); \
		} \
		_Pragma("unroll") \
		for (uint i = 0; i < (NK) * (NV); i++) \
			a[i] = OPF(before, a[i]); \
		barrier(CLK_LOCAL_MEM_FENCE); \
		return total; \
	}

/* Reduce one value per work-item over the work-group; every work-item gets the result. */
#define DEFINE_BLOCK_REDUCE(NAME, TY, OPF, WREDUCE) \
	CLWARP_INLINE TY NAME(TY v, local TY *sm, CLWARP_WARP_PARAM) \
	{ \
		v = WREDUCE(v); \
		if (ALGO_LANE() == 0) \
			sm[ALGO_WARP()] = v; \
		barrier(CLK_LOCAL_MEM_FENCE); \
		TY r = sm[0]; \
		for (uint w = 1; w < WARPS; w++) \
			r = OPF(r, sm[w]); \
		barrier(CLK_LOCAL_MEM_FENCE); \
		return r; \
	}

/* A device-wide fence between a value and its status word. OpenCL 1.2's
 * mem_fence only promises order as the work-item sees it; on NVIDIA the
 * order other SMs see needs membar.gl. */
#ifdef CLWARP_BACKEND_NV
#define GLOBAL_FENCE() asm volatile("membar.gl;" ::: "memory")
#else
#define GLOBAL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

/* Values passed between work-groups (reduce partials, split look-back
 * values) move through 32-bit atomics, so they are race-free in the memory
 * model (and for Oclgrind). A status word orders them, so a 64-bit value
 * may travel as two halves. */
#define DEFINE_SHARED_VALUE_32(TY) \
	CLWARP_OVERLOAD void value_store(volatile global TY *p, TY v) \
	{ \
		atomic_xchg((volatile global uint *)p, as_uint(v)); \
	} \
	CLWARP_OVERLOAD TY value_load(volatile global TY *p) \
	{ \
		return as_##TY(atomic_or((volatile global uint *)p, 0u)); \
	}
#define DEFINE_SHARED_VALUE_64(TY) \
	CLWARP_OVERLOAD void value_store(volatile global TY *p, TY v) \
	{ \
		uint2 h = as_uint2(v); \
		atomic_xchg((volatile global uint *)p, h.x); \
		atomic_xchg((volatile global uint *)p + 1, h.y); \
	} \
	CLWARP_OVERLOAD TY value_load(volatile global TY *p) \
	{ \
		uint2 h; \
		h.x = atomic_or((volatile global uint *)p, 0u); \
		h.y = atomic_or((volatile global uint *)p + 1, 0u); \
		return as_##TY(h); \
	}
DEFINE_SHARED_VALUE_32(int)
DEFINE_SHARED_VALUE_32(uint)
DEFINE_SHARED_VALUE_32(float)
DEFINE_SHARED_VALUE_64(long)
DEFINE_SHARED_VALUE_64(ulong)
CLWARP_IF_FP64(DEFINE_SHARED_VALUE_64(double))

/*
 * 64-bit words read and written whole by other work-groups: relaxed
 * gpu-scope PTX loads and stores on NVIDIA (plain ones are enough, as the
 * word carries its own data), cl_khr_int64_base_atomics elsewhere. Where
 * neither exists, ALGO_WORD64 stays undefined.
 */
#ifdef CLWARP_BACKEND_NV
#define ALGO_WORD64 1
#if defined(CLWARP_NV_SM) && CLWARP_NV_SM >= 70
#define ALGO_PTX_SEM "relaxed.gpu"
#else
#define ALGO_PTX_SEM "volatile"
#endif
CLWARP_INLINE void word_store(volatile global ulong *p, ulong w)
{
	asm volatile("st." ALGO_PTX_SEM ".global.u64 [%0], %1;" ::"l"((ulong)p), "l"(w) : "memory");
}

CLWARP_INLINE ulong word_load(volatile global ulong *p)
{
	ulong w;
	asm volatile("ld." ALGO_PTX_SEM ".global.u64 %0, [%1];" : "=l"(w) : "l"((ulong)p) : "memory");
	return w;
}
#if defined(CLWARP_NV_SM) && CLWARP_NV_SM >= 70
#define ALGO_SLEEP(ns) asm volatile("nanosleep.u32 %0;" ::"r"((uint)(ns)) : "memory")
#endif
/* The same value, which NVIDIA's compiler must take as new: nothing it
 * derived from x before this point is reused after it (runs.cl, after the
 * look-back; docs/design/lookback.md). */
CLWARP_INLINE uint algo_opaque(uint x)
{
	asm volatile("mov.b32 %0, %0;" : "+r"(x));
	return x;
}
#elif defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define ALGO_WORD64 1
CLWARP_INLINE void word_store(volatile global ulong *p, ulong w)
{
	atom_xchg(p, w);
}

CLWARP_INLINE ulong word_load(volatile global ulong *p)
{
	return atom_add(p, 0ul);
}
#endif
#ifndef CLWARP_BACKEND_NV
CLWARP_INLINE uint algo_opaque(uint x)
{
	return x;
}
#endif

/*
 * Look-back tile descriptors: what tile `tile` has published, a state
 * word (epoch << 2) | STATE_* and a value, the tile's aggregate or its
 * inclusive prefix. `words` holds one 64-bit word per tile, `slots` two
 * values per tile.
 *
 * tile_publish(words, slots, tile, state, v) publishes; tile_wait(words,
 * slots, tile, fa, fp, &v) waits until the state is fa or fp, stores the
 * value in v and returns the state. Two implementations, chosen by type:
 *
 *  - packed (4-byte values, where ALGO_WORD64 is defined): state and value
 *    share one 64-bit word, written and read whole, so a reader always sees
 *    a value with the state it was published with, and no fence is needed
 *    (CUB's ScanTileState does the same);
 *  - split (8-byte values, or no 64-bit words): the value goes to its own
 *    slot (one for the aggregate, one for the prefix, so a later prefix
 *    cannot overwrite an aggregate being read), then a global fence, then
 *    the state as a 32-bit atomic; the reader fences between the state and
 *    the value.
 *
 * Both keep the state in the word's high-order half (STATE_HALF), so a
 * packed value from an earlier call never reads as a split state.
 */
#ifdef __ENDIAN_LITTLE__
#define STATE_HALF(words, tile) ((volatile global uint *)&(words)[tile] + 1)
#else
#define STATE_HALF(words, tile) ((volatile global uint *)&(words)[tile])
#endif
#define DEFINE_TILE_PACKED(TY) \
	CLWARP_OVERLOAD void tile_publish(volatile global ulong *words, volatile global TY *slots, \
					  uint tile, uint state, TY v) \
	{ \
		word_store(&words[tile], (ulong)state << 32 | as_uint(v)); \
	} \
	CLWARP_OVERLOAD uint tile_wait(volatile global ulong *words, volatile global TY *slots, \
				       uint tile, uint fa, uint fp, TY *v) \
	{ \
		ulong w; \
		uint state; \
		do { \
			w = word_load(&words[tile]); \
			state = (uint)(w >> 32); \
			if (state != fa && state != fp) \
				LOOKBACK_POLL_DELAY(); \
		} while (state != fa && state != fp); \
		*v = as_##TY((uint)w); \
		return state; \
	}
#define DEFINE_TILE_SPLIT(TY) \
	CLWARP_OVERLOAD void tile_publish(volatile global ulong *words, volatile global TY *slots, \
					  uint tile, uint state, TY v) \
	{ \
		value_store(&slots[2 * tile + ((state & 3u) == STATE_PREFIX)], v); \
		GLOBAL_FENCE(); \
		atomic_xchg(STATE_HALF(words, tile), state); \
	} \
	CLWARP_OVERLOAD uint tile_wait(volatile global ulong *words, volatile global TY *slots, \
				       uint tile, uint fa, uint fp, TY *v) \
	{ \
		uint state; \
		do { \
			state = atomic_or(STATE_HALF(words, tile), 0u); \
			if (state != fa && state != fp) \
				LOOKBACK_POLL_DELAY(); \
		} while (state != fa && state != fp); \
		GLOBAL_FENCE(); \
		*v = value_load(&slots[2 * tile + (state == fp)]); \
		return state; \
	}
/*
 * Naps in the look-back, as CUB takes them (its "delay constructors"),
 * where the library defines ALGO_LOOKBACK_WAIT / ALGO_LOOKBACK_POLL (nv:
 * scan, compaction, partition, unique, and runs when tuned;
 * src/algo_variants.c, lookback_naps): the look-back warp
 * sleeps ALGO_LOOKBACK_WAIT ns before its first poll, so that its
 * predecessors have published by then, and ALGO_LOOKBACK_POLL ns after
 * each poll that finds a tile not ready, instead of hammering the tile
 * words in L2 while other work-groups stream their tiles. Only in launches
 * of at least ALGO_NAP_GROUPS work-groups (500, CUB's threshold; the
 * library sets 2048 for runs): in smaller ones the nap would only add
 * latency. On the H100 the wait alone made compaction of
 * 2^25-2^28 floats 1.14-1.25x as fast; the poll nap alone changed it by
 * -5 to +4 %. Scans gained 1.08-1.17x at 2^22-2^28, unique 1.16-1.25x at
 * 2^26-2^28.
 */
#ifndef ALGO_NAP_GROUPS
#define ALGO_NAP_GROUPS 500
#endif
#define ALGO_NAP(ns) do { if (get_num_groups(0) >= ALGO_NAP_GROUPS) ALGO_SLEEP(ns); } while (0)
#if defined(ALGO_SLEEP) && defined(ALGO_LOOKBACK_POLL)
#define LOOKBACK_POLL_DELAY() ALGO_NAP(ALGO_LOOKBACK_POLL)
#else
#define LOOKBACK_POLL_DELAY() do { } while (0)
#endif
#if defined(ALGO_SLEEP) && defined(ALGO_LOOKBACK_WAIT)
#define LOOKBACK_FIRST_WAIT() ALGO_NAP(ALGO_LOOKBACK_WAIT)
#else
#define LOOKBACK_FIRST_WAIT() do { } while (0)
#endif
#if defined(ALGO_WORD64) && !defined(CLWARP_ALGO_SPLIT_LOOKBACK)
DEFINE_TILE_PACKED(int)
DEFINE_TILE_PACKED(uint)
DEFINE_TILE_PACKED(float)
#else
DEFINE_TILE_SPLIT(int)
DEFINE_TILE_SPLIT(uint)
DEFINE_TILE_SPLIT(float)
#endif
DEFINE_TILE_SPLIT(long)
DEFINE_TILE_SPLIT(ulong)
CLWARP_IF_FP64(DEFINE_TILE_SPLIT(double))

/*
 * Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan
 * with Decoupled Look-back"). NAME_announce(tile, aggregate, ...) publishes
 * the tile's aggregate (tile 0: its inclusive prefix) as soon as it is
 * known, since successors wait for it. NAME(...) then folds the
 * predecessors' values back to the first one that has published an
 * inclusive prefix, publishes the tile's own inclusive prefix, and returns
 * its exclusive prefix (the identity for tile 0) to every work-item; it
 * ends with a barrier.
 *
 * A tile waits only for tiles with smaller ids, which took their id before
 * it did and so are running: no deadlock, also where work-groups run one
 * after another (Oclgrind) or on a thread pool (PoCL).
 */
#define DEFINE_LOOKBACK(NAME, TY, OPF, IDV, WREDUCE) \
	CLWARP_INLINE void NAME##_announce(uint tile, TY aggregate, uint epoch, \
					   volatile global ulong *words, volatile global TY *slots) \
	{ \
		if (get_local_id(0) == 0) \
			tile_publish(words, slots, tile, \
				     (epoch << 2) | (tile == 0 ? STATE_PREFIX : STATE_AGGREGATE), \
				     aggregate); \
	} \
	CLWARP_INLINE TY NAME(uint tile, TY aggregate, uint epoch, volatile global ulong *words, \
			      volatile global TY *slots, local TY *shared, CLWARP_WARP_PARAM) \
	{ \
		const uint fa = (epoch << 2) | STATE_AGGREGATE, fp = (epoch << 2) | STATE_PREFIX; \
		uint lid = get_local_id(0); \
		LOOKBACK_BODY(TY, OPF, IDV, WREDUCE) \
		barrier(CLK_LOCAL_MEM_FENCE); \
		return *shared; \
	}

#ifdef CLWARP_ALGO_WARP_ALONE
/* Warp 0 inspects WARP_SIZE predecessors at a time: lane l reads tile
 * j - l; the window is folded up to its nearest inclusive prefix. Lanes
 * before tile 0 count as an inclusive prefix of the identity. */
#define LOOKBACK_BODY(TY, OPF, IDV, WREDUCE) \
		if (tile > 0 && ALGO_WARP() == 0) { \
			uint lane = ALGO_LANE(); \
			TY excl = IDV; \
			LOOKBACK_FIRST_WAIT(); \
			for (int j = (int)tile - 1;; j -= CLWARP_WARP_SIZE) { \
				int idx = j - (int)lane; \
				uint f = fp; \
				TY v = IDV; \
				if (idx >= 0) \
					f = tile_wait(words, slots, (uint)idx, fa, fp, &v); \
				ulong found = warp_ballot(f == fp); \
				uint first = found ? (uint)popcount((found & (~found + 1ul)) - 1ul) : CLWARP_WARP_SIZE; \
				TY w = WREDUCE(lane <= first ? v : (TY)(IDV)); \
				excl = OPF(w, excl); \
				if (found) \
					break; \
			} \
			if (lane == 0) { \
				tile_publish(words, slots, tile, fp, OPF(excl, aggregate)); \
				*shared = excl; \
			} \
		} else if (tile == 0 && lid == 0) { \
			*shared = IDV; \
		}
#else
/* One work-item walks back one predecessor at a time. */
#define LOOKBACK_BODY(TY, OPF, IDV, WREDUCE) \
		if (lid == 0) { \
			TY excl = IDV; \
			for (int j = (int)tile - 1; j >= 0; j--) { \
				TY v; \
				uint f = tile_wait(words, slots, (uint)j, fa, fp, &v); \
				excl = j == (int)tile - 1 ? v : OPF(v, excl); \
				if (f == fp) \
					break; \
			} \
			if (tile > 0) \
				tile_publish(words, slots, tile, fp, OPF(excl, aggregate)); \
			*shared = excl; \
		}
#endif

/* The tile id: taken in launch order from a counter, so every smaller id
 * belongs to a work-group that has started. The work-group that takes the
 * last id resets the counter for the next launch. */
CLWARP_INLINE uint take_tile(volatile global uint *counter, uint tiles, local uint *shared)
{
	if (get_local_id(0) == 0) {
		uint t = atomic_inc(counter);
		if (t == tiles - 1)
			atomic_xchg(counter, 0u);
		*shared = t;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	return *shared;
}

/*
 * Keys of one run (unique, run-length encode, reduce by key) compare with
 * ==, as CUB's do: for floats IEEE equality, so -0.0 equals +0.0 and a
 * NaN equals nothing, not even itself. Floats compare on their bits, so a
 * device that flushes denormals still tells them from zero.
 */
#define DEFINE_KEYS_EQUAL_INT(TY) \
	CLWARP_OVERLOAD int keys_equal(TY a, TY b) \
	{ \
		return a == b; \
	}
#define DEFINE_KEYS_EQUAL_FLOAT(TY, BITS, NAN_ABOVE) \
	CLWARP_OVERLOAD int keys_equal(TY a, TY b) \
	{ \
		BITS x = as_##BITS(a), y = as_##BITS(b); \
		return (x == y && (BITS)(x << 1) <= (NAN_ABOVE)) || (BITS)((x | y) << 1) == 0; \
	}
DEFINE_KEYS_EQUAL_INT(char)
DEFINE_KEYS_EQUAL_INT(uchar)
DEFINE_KEYS_EQUAL_INT(short)
DEFINE_KEYS_EQUAL_INT(ushort)
DEFINE_KEYS_EQUAL_INT(int)
DEFINE_KEYS_EQUAL_INT(uint)
DEFINE_KEYS_EQUAL_INT(long)
DEFINE_KEYS_EQUAL_INT(ulong)
/* The bits shifted left past the sign: above these, a NaN. */
DEFINE_KEYS_EQUAL_FLOAT(float, uint, 0xff000000u)
CLWARP_IF_FP64(DEFINE_KEYS_EQUAL_FLOAT(double, ulong, 0xffe0000000000000ul))

/* Bit k * VEC + c of the result: element (k, c) of the tile at base lies
 * below n. */
CLWARP_INLINE uint tile_valid_bits(ulong base, ulong n)
{
	uint valid = 0;

	_Pragma("unroll")
	for (uint k = 0; k < ITEMS_K; k++) {
		ulong o = base + tile_offset(k);
		_Pragma("unroll")
		for (uint c = 0; c < VEC; c++)
			valid |= (uint)(o + c < n) << (k * VEC + c);
	}
	return valid;
}

/*
 * Run heads of a tile loaded by load_tile: bit k * VEC + c is set where
 * element (k, c) is in range and starts a run (the first element, or one
 * whose key differs from the one before). The key before a vector's first
 * element comes from global memory (usually a cache hit).
 */
CLWARP_INLINE uint tile_heads(global const T *in, ulong base, ulong n, const T *a)
{
	uint heads = 0;

	for (uint k = 0; k < ITEMS_K; k++) {
		ulong o = base + tile_offset(k);
		for (uint c = 0; c < VEC; c++) {
			T prev = c > 0 ? a[k * VEC + c - 1] : o > 0 && o < n ? in[o - 1] : a[k * VEC];
			uint head = o + c < n && (o + c == 0 || !keys_equal(a[k * VEC + c], prev));
			heads |= head << (k * VEC + c);
		}
	}
	return heads;
}
