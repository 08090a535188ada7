/* native-collectives: libclwarp's generic path against the native
 * cl_khr_subgroup_* collectives, one pair per case (docs/design/cpu-sort.md,
 * "Intel's CPU runtime"; docs/intel-opencl.md says which ones libclwarp uses).
 * SPDX-License-Identifier: MIT
 *
 * Run by bench/native-collectives.sh through clwarp-run (--repeat), with
 * -DCASE=n: GEN (libclwarp's call, built with -DCLWARP_GENERIC_COLLECTIVES)
 * against NAT (-DNATIVE, the built-in), on the intel or khr backend. Cases
 * 15, 16 and 18-20 compare the core sub_group_* collectives (NAT) with
 * libclwarp's generic path at the same width (GEN). Each work-item runs `iters` dependent steps of one warp
 * operation (16 unrolled per trip, so widths and lanes are constants, as
 * in bench/warp-bench.cl) and adds its last value to out[0]: both forms
 * must print the same sum (integer arithmetic, exact in any order), so a
 * native call that gives another answer shows at once.
 */
//! run: -g 1048576 -l 256 -a out:uint[1] -a uint:256

#ifdef NATIVE
#pragma OPENCL EXTENSION cl_khr_subgroup_clustered_reduce : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_extended_types : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_rotate : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
#endif

#if CASE == 1 /* reduce add, int, width 8: clustered */
#define GEN(v, k) (uint)warp_reduce_add((int)(v), 8u)
#define NAT(v, k) (uint)sub_group_clustered_reduce_add((int)(v), 8u)
#elif CASE == 2 /* reduce xor, uint, width 4: clustered */
#define GEN(v, k) warp_reduce_xor(v, 4u)
#define NAT(v, k) sub_group_clustered_reduce_xor(v, 4u)
#elif CASE == 3 /* reduce xor, uint, whole warp: non-uniform */
#define GEN(v, k) warp_reduce_xor(v)
#define NAT(v, k) sub_group_non_uniform_reduce_xor(v)
#elif CASE == 4 /* reduce mul, uint, whole warp: non-uniform */
#define GEN(v, k) warp_reduce_mul(v | 1u)
#define NAT(v, k) sub_group_non_uniform_reduce_mul(v | 1u)
#elif CASE == 5 /* inclusive scan xor, uint: non-uniform */
#define GEN(v, k) warp_scan_inclusive_xor(v)
#define NAT(v, k) sub_group_non_uniform_scan_inclusive_xor(v)
#elif CASE == 6 /* exclusive scan mul, uint: non-uniform (lane 0 gets 1 on both) */
#define GEN(v, k) warp_scan_exclusive_mul(v | 1u)
#define NAT(v, k) sub_group_non_uniform_scan_exclusive_mul(v | 1u)
#elif CASE == 7 /* reduce add, char, whole warp: extended types */
#define GEN(v, k) (uint)(uchar)warp_reduce_add((char)(v))
#define NAT(v, k) (uint)(uchar)sub_group_reduce_add((char)(v))
#elif CASE == 8 /* inclusive scan max, short: extended types */
#define GEN(v, k) (uint)(ushort)warp_scan_inclusive_max((short)(v))
#define NAT(v, k) (uint)(ushort)sub_group_scan_inclusive_max((short)(v))
#elif CASE == 9 /* reduce min, uchar, width 4: clustered and extended types */
#define GEN(v, k) (uint)warp_reduce_min((uchar)(v), 4u)
#define NAT(v, k) (uint)sub_group_clustered_reduce_min((uchar)(v), 4u)
#elif CASE == 10 /* shuffle, char: extended types */
#define GEN(v, k) (uint)(uchar)warp_shuffle((char)(v), lane ^ ((k) + 1u))
#define NAT(v, k) (uint)(uchar)sub_group_shuffle((char)(v), (lane ^ ((k) + 1u)) & (warp_size() - 1u))
#elif CASE == 11 /* broadcast, uint4: extended types (vectors) */
#define GEN(v, k) clwarp_sum4(warp_broadcast((uint4)(v, v * 3u, v ^ lc, v + 7u), (k) & (warp_size() - 1u)))
#define NAT(v, k) clwarp_sum4(sub_group_broadcast((uint4)(v, v * 3u, v ^ lc, v + 7u), (k) & (warp_size() - 1u)))
#elif CASE == 12 /* shuffle down by k + 1: rotate */
#define GEN(v, k) warp_shuffle_down(v, (k) + 1u)
#define NAT(v, k) clwarp_rot_down(v, (k) + 1u, lane)
#elif CASE == 13 /* reduce and, uint, whole warp: non-uniform */
#define GEN(v, k) warp_reduce_and(v | (1u << (k)))
#define NAT(v, k) sub_group_non_uniform_reduce_and(v | (1u << (k)))
#elif CASE == 17 /* reduce or, uint, whole warp: non-uniform */
#define GEN(v, k) warp_reduce_or(v & ~(1u << (k)))
#define NAT(v, k) sub_group_non_uniform_reduce_or(v & ~(1u << (k)))
#elif CASE == 14 /* reduce xor, ulong, whole warp: non-uniform */
#define GEN(v, k) (uint)(warp_reduce_xor(((ulong)v << 29) ^ v) >> 7)
#define NAT(v, k) (uint)(sub_group_non_uniform_reduce_xor(((ulong)v << 29) ^ v) >> 7)
#elif CASE == 15 /* reduce add, int, whole warp: libclwarp's generic butterfly against
		  * the core cl_khr_subgroups sub_group_reduce_add (cases 15, 16, 18-20:
		  * what the khr and intel backends use where the device is no CPU) */
#define GEN(v, k) (uint)warp_reduce_add((int)(v), warp_size())
#define NAT(v, k) (uint)sub_group_reduce_add((int)(v))
#elif CASE == 16 /* inclusive scan add, int, whole warp: the same for the scan */
#define GEN(v, k) (uint)warp_scan_inclusive_add((int)(v), warp_size())
#define NAT(v, k) (uint)sub_group_scan_inclusive_add((int)(v))
#elif CASE == 18 /* reduce max, float, whole warp (through order-preserving keys) */
#define GEN(v, k) as_uint(warp_reduce_max((float)(v), warp_size()))
#define NAT(v, k) as_uint(CLWARP_SG_MAX(sub_group_reduce_max, (float)(v)))
#elif CASE == 19 /* exclusive scan add, uint, whole warp */
#define GEN(v, k) warp_scan_exclusive_add(v, warp_size())
#define NAT(v, k) clwarp_sg_scan_exclusive_add(v)
#elif CASE == 20 /* reduce min, ulong, whole warp */
#define GEN(v, k) (uint)(warp_reduce_min(((ulong)v << 29) ^ v, warp_size()) >> 7)
#define NAT(v, k) (uint)(sub_group_reduce_min(((ulong)v << 29) ^ v) >> 7)
#elif CASE == 21 /* inclusive scan max, float, whole warp (keys) */
#define GEN(v, k) as_uint(warp_scan_inclusive_max((float)(v), warp_size()))
#define NAT(v, k) as_uint(CLWARP_SG_MAX(sub_group_scan_inclusive_max, (float)(v)))
#elif CASE == 22 /* inclusive scan add, ulong, whole warp */
#define GEN(v, k) (uint)(warp_scan_inclusive_add(((ulong)v << 29) ^ v, warp_size()) >> 7)
#define NAT(v, k) (uint)(sub_group_scan_inclusive_add(((ulong)v << 29) ^ v) >> 7)
#elif CASE == 23 /* reduce add, uint, whole warp */
#define GEN(v, k) warp_reduce_add(v, warp_size())
#define NAT(v, k) sub_group_reduce_add(v)
#endif

#if CASE == 19
/* The collective outside the condition: every lane must reach it. */
static inline uint clwarp_sg_scan_exclusive_add(uint v)
{
	uint r = sub_group_scan_exclusive_add(v);
	return get_sub_group_local_id() == 0 ? 0u : r;
}
#endif
static inline uint clwarp_sum4(uint4 a) { return a.x + a.y + a.z + a.w; }
#ifdef NATIVE
#if CASE == 12 /* Intel's runtime is the only one with sub_group_rotate */
static inline uint clwarp_rot_down(uint v, uint d, uint lane)
{
	uint r = sub_group_rotate(v, d);
	return lane + d < warp_size() ? r : v;
}
#endif
#define STEP(v, k) NAT(v, k)
#else
#define STEP(v, k) GEN(v, k)
#endif

#define S(k) v = (STEP(v, k) ^ lc) + (i0 + (k));

kernel void native_collectives(global uint *out, uint iters)
{
	uint gid = (uint)get_global_id(0), lane = warp_lane_id(), lc = lane * 0x27D4EB2Fu;
	uint v = gid * 0x9E3779B1u;

	for (uint i0 = 0u; i0 < iters; i0 += 16u) {
		S(0u) S(1u) S(2u) S(3u) S(4u) S(5u) S(6u) S(7u)
		S(8u) S(9u) S(10u) S(11u) S(12u) S(13u) S(14u) S(15u)
	}
	atomic_add(out, v);
}
