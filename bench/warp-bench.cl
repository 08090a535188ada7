/* warp-bench: shuffle-bound chains of dependent warp operations, one kernel per family. */
/* SPDX-License-Identifier: MIT */
/*
 * Built by bench/warp-bench.c through the engine (the warp API is the
 * prelude). bench/warp-bench.cu has the same kernels in CUDA and
 * bench/warp-bench-ref.h the host reference and the list of steps; keep the
 * three in step. Each kernel: v from wb_hash(global id), `iters` dependent
 * steps (a multiple of 16: sixteen unrolled steps k = 0..15 per trip, so
 * every warp operand is a compile-time constant), one store.
 *
 * -DWB_ONLY -DWB_ONLY_<family> builds one kernel only (warp-bench -f).
 */

#define WB_K 2654435761u
#define WB_L 0x27D4EB2Fu

/* The logical widths, no larger than the warp (local can be forced to 1..64 lanes). */
#if CLWARP_WARP_SIZE >= 16
#define WB_W8 8u
#define WB_W16 16u
#else
#define WB_W8 ((uint)(CLWARP_WARP_SIZE < 8 ? CLWARP_WARP_SIZE : 8))
#define WB_W16 ((uint)CLWARP_WARP_SIZE)
#endif

static inline uint wb_hash(uint g)
{
	g *= 0x9E3779B1u;
	g ^= g >> 16;
	g *= 0x85EBCA6Bu;
	g ^= g >> 13;
	return g;
}

static inline float wb_wrap(float x) { return x - 1024.0f * floor(x * 0.0009765625f); }

#define WB_STEPS16(S) S(0u) S(1u) S(2u) S(3u) S(4u) S(5u) S(6u) S(7u) \
	S(8u) S(9u) S(10u) S(11u) S(12u) S(13u) S(14u) S(15u)
#define WB_PAIRS16(S) S(0u, 1u) S(2u, 3u) S(4u, 5u) S(6u, 7u) \
	S(8u, 9u) S(10u, 11u) S(12u, 13u) S(14u, 15u)
#define WB_LOOP(S) for (uint i0 = 0u; i0 < iters; i0 += 16u) { WB_STEPS16(S) }

/* Kernel bodies. The kernels themselves are written out at file scope: the
 * engine adds the local backend's hidden scratch argument only to kernels
 * it sees there, not to kernels made by a macro. */

/* uint chains: v = STEP(v, k, i); out[gid] = v. */
#define WB_UINT_BODY(STEP) \
	uint gid = (uint)get_global_id(0), lane = warp_lane_id(), lc = lane * WB_L, v = wb_hash(gid); \
	WB_LOOP(STEP) \
	out[gid] = v; \
	(void)lane; \
	(void)lc;

/* float chains over integers in [0, 1024). */
#define WB_FLOAT_BODY(STEP) \
	uint gid = (uint)get_global_id(0), lane = warp_lane_id(); \
	float lf = (float)lane, v = (float)(wb_hash(gid) & 1023u); \
	WB_LOOP(STEP) \
	out[gid] = v; \
	(void)lf;

/* int chains. */
#define WB_INT_BODY(STEP) \
	uint gid = (uint)get_global_id(0), lc = warp_lane_id() * WB_L; \
	int v = (int)wb_hash(gid); \
	WB_LOOP(STEP) \
	out[gid] = v;

/* ---- shuffles */
#if !defined(WB_ONLY) || defined(WB_ONLY_shfl_idx)
#define S(k) v = warp_shuffle(v, lane + (2u * (k) + 1u)) + lc + (i0 + (k));
kernel void wb_shfl_idx(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_shfl_xor)
#define S(k) v = warp_shuffle_xor(v, (k) + 1u) + lc + (i0 + (k));
kernel void wb_shfl_xor(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_shfl_down)
#define S(k) v = warp_shuffle_down(v, (k) + 1u) + lc + (i0 + (k));
kernel void wb_shfl_down(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_shfl_up)
#define S(k) v = warp_shuffle_up(v, (k) + 1u) + lc + (i0 + (k));
kernel void wb_shfl_up(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_shfl_xor_w8)
#define S(k) v = warp_shuffle_xor(v, (k) % 7u + 1u, WB_W8) + lc + (i0 + (k));
kernel void wb_shfl_xor_w8(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_shfl_down_w16)
#define S(k) v = warp_shuffle_down(v, (k) % 15u + 1u, WB_W16) + lc + (i0 + (k));
kernel void wb_shfl_down_w16(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

/* ---- reductions */
#if !defined(WB_ONLY) || defined(WB_ONLY_reduce_add_int)
#define S(k) v = (int)(((uint)warp_reduce_add(v) ^ lc) + (i0 + (k)));
kernel void wb_reduce_add_int(global int *out, uint iters) { WB_INT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_reduce_add_float)
#define S(k) v = wb_wrap(warp_reduce_add(v) + lf + (float)(k));
kernel void wb_reduce_add_float(global float *out, uint iters) { WB_FLOAT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_reduce_max_float)
#define S(k) v = wb_wrap(warp_reduce_max(v) + lf + (float)(k));
kernel void wb_reduce_max_float(global float *out, uint iters) { WB_FLOAT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_reduce_add_w8)
#define S(k) v = (warp_reduce_add(v, WB_W8) ^ lc) + (i0 + (k));
kernel void wb_reduce_add_w8(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_reduce_xor)
#define S(k) v = (warp_reduce_xor(v) ^ lc) + (i0 + (k));
kernel void wb_reduce_xor(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_reduce_mul_float)
/* +-2^e values whose warp product is +-1: exact in any order (see
 * warp-bench-ref.h); lane 0 also takes the product's sign bit. */
#define WB_MUL_FACTOR(k) ((((lane + (k)) & 1u) ? 2.0f : 0.5f) * ((((lane >> 1) + (k)) & 1u) ? -1.0f : 1.0f))
#define S(k) p = warp_reduce_mul(v); v = as_float(as_uint(v * p * WB_MUL_FACTOR(k)) ^ (as_uint(p) & sign0));
kernel void wb_reduce_mul_float(global float *out, uint iters)
{
	uint gid = (uint)get_global_id(0), lane = warp_lane_id(), sign0 = lane == 0u ? 0x80000000u : 0u;
	float p, v = (lane < warp_size() / 2u ? 2.0f : 0.5f) * ((wb_hash(gid) & 256u) ? -1.0f : 1.0f);
	WB_LOOP(S)
	out[gid] = v;
}
#undef S
#endif

/* ---- scans */
#if !defined(WB_ONLY) || defined(WB_ONLY_scan_add_float)
#define S(k) v = wb_wrap(warp_scan_inclusive_add(v) + (float)(k));
kernel void wb_scan_add_float(global float *out, uint iters) { WB_FLOAT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_scan_add_int_exclusive)
#define S(k) v = (int)(((uint)warp_scan_exclusive_add(v) ^ lc) + (i0 + (k)));
kernel void wb_scan_add_int_exclusive(global int *out, uint iters) { WB_INT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_scan_add_w16)
#define S(k) v = wb_wrap(warp_scan_inclusive_add(v, WB_W16) + (float)(k));
kernel void wb_scan_add_w16(global float *out, uint iters) { WB_FLOAT_BODY(S) }
#undef S
#endif

/* ---- votes */
#if !defined(WB_ONLY) || defined(WB_ONLY_ballot)
#define S(k) v = (v ^ (uint)warp_ballot((int)((v >> ((k) + 8u)) & 1u))) * WB_K + (i0 + (k));
kernel void wb_ballot(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_all_any)
/* One vote per step: warp_all on even k, warp_any on odd k. */
#define P(ka, kb) \
	v = (v + (uint)warp_all(((v >> ((ka) + 8u)) & 15u) != 0u)) * WB_K + (i0 + (ka)); \
	v = (v + (uint)warp_any(((v >> ((kb) + 4u)) & 63u) == 0u)) * WB_K + (i0 + (kb));
kernel void wb_all_any(global uint *out, uint iters)
{
	uint gid = (uint)get_global_id(0), v = wb_hash(gid);
	for (uint i0 = 0u; i0 < iters; i0 += 16u) {
		WB_PAIRS16(P)
	}
	out[gid] = v;
}
#undef P
#endif

/* ---- match */
#if !defined(WB_ONLY) || defined(WB_ONLY_match_any)
#define S(k) v = (v + (uint)warp_match_any((v >> ((k) + 8u)) & 7u)) * WB_K + (i0 + (k));
kernel void wb_match_any(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

#if !defined(WB_ONLY) || defined(WB_ONLY_match_all)
#define S(k) v = (v + (uint)warp_match_all(((v >> ((k) + 8u)) & 15u) != 0u ? 1u : 0u)) * WB_K + (i0 + (k));
kernel void wb_match_all(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif

/* ---- sort */
#if !defined(WB_ONLY) || defined(WB_ONLY_sort)
#define S(k) v = (warp_sort(v) ^ lc) + (i0 + (k));
kernel void wb_sort(global uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#endif
