/* Kernels of tests/test-warp-ops.c: logical widths, the mul/and/or/xor
 * operators, votes, match and a user-defined operator, for -DCW_T=<type>
 * (-DCW_INT for the integer types, -DCW_USER_OP with ulong, -DCW_USER_OP_VEC
 * with vectors). Field 33 (warp_broadcast without a width) is there for
 * every type. 1-D launches:
 * slot g = get_global_id(0). Field f of slot g goes to out[f * n + g] (values
 * of type T) or bits[f * n + g] (masks and votes). `width` is an argument, so
 * one build runs every width. No helper here takes a warp parameter: the
 * engine's rewrite gives them the context on the local backend. */

#ifdef CW_USER_OP
/* Composition of affine maps x -> m x + c (mod 2^32), packed as (c << 32) | m:
 * associative but not commutative ("a, then b": m = ma mb, c = ca mb + cb). */
#define CW_AFFINE(a, b) \
	((((ulong)((uint)((a) >> 32) * (uint)(b) + (uint)((b) >> 32))) << 32) | \
	 (ulong)((uint)(a) * (uint)(b)))
CLWARP_DEFINE_WARP_OP(affine, ulong, CW_AFFINE, 1ul)
#endif
#ifdef CW_USER_OP_VEC
/* A user operator over a vector: on local, wider than a slot it takes the
 * shuffle path, at most 8 bytes the fold. */
CLWARP_DEFINE_WARP_OP(vadd, CW_T, CLWARP_ADD, 0)
#endif

kernel void ops(global const CW_T *s, global const CW_T *a, global const CW_T *m,
		global const CW_T *p, global const CW_T *q, global const int *pr,
		global const uint *args, uint bsrc, uint width,
		global CW_T *out, global ulong *bits)
{
	uint g = get_global_id(0);
	uint n = get_global_size(0);
	CW_T sv = s[g], av = a[g], mv = m[g], pv = p[g], qv = q[g];
	int pred = pr[g];

	out[0 * n + g] = warp_shuffle(sv, args[g * 4 + 0], width);
	out[1 * n + g] = warp_shuffle_down(sv, args[g * 4 + 1], width);
	out[2 * n + g] = warp_shuffle_up(sv, args[g * 4 + 2], width);
	out[3 * n + g] = warp_shuffle_xor(sv, args[g * 4 + 3], width);
	out[4 * n + g] = warp_broadcast(sv, bsrc, width);
	out[5 * n + g] = warp_reduce_add(av, width);
	out[6 * n + g] = warp_reduce_min(mv, width);
	out[7 * n + g] = warp_reduce_max(mv, width);
	out[8 * n + g] = warp_reduce_mul(pv, width);
	out[9 * n + g] = warp_scan_inclusive_add(av, width);
	out[10 * n + g] = warp_scan_inclusive_min(mv, width);
	out[11 * n + g] = warp_scan_inclusive_max(mv, width);
	out[12 * n + g] = warp_scan_inclusive_mul(pv, width);
	out[13 * n + g] = warp_scan_exclusive_add(av, width);
	out[14 * n + g] = warp_scan_exclusive_min(mv, width);
	out[15 * n + g] = warp_scan_exclusive_max(mv, width);
	out[16 * n + g] = warp_scan_exclusive_mul(pv, width);
	out[17 * n + g] = warp_reduce_mul(pv);
	out[18 * n + g] = warp_scan_exclusive_mul(pv);
	/* without a width: for vectors, one broadcast of the whole value where
	 * the backend has one (cl_khr_subgroup_extended_types) */
	out[33 * n + g] = warp_broadcast(sv, bsrc);
#ifdef CW_INT
	out[19 * n + g] = warp_reduce_and(sv, width);
	out[20 * n + g] = warp_reduce_or(sv, width);
	out[21 * n + g] = warp_reduce_xor(sv, width);
	out[22 * n + g] = warp_scan_inclusive_and(sv, width);
	out[23 * n + g] = warp_scan_inclusive_or(sv, width);
	out[24 * n + g] = warp_scan_inclusive_xor(sv, width);
	out[25 * n + g] = warp_scan_exclusive_and(sv, width);
	out[26 * n + g] = warp_scan_exclusive_or(sv, width);
	out[27 * n + g] = warp_scan_exclusive_xor(sv, width);
	out[28 * n + g] = warp_reduce_xor(sv);
#endif
#ifdef CW_USER_OP
	out[29 * n + g] = warp_reduce_affine(sv, width);
	out[30 * n + g] = warp_scan_inclusive_affine(sv, width);
	out[31 * n + g] = warp_scan_exclusive_affine(sv, width);
	out[32 * n + g] = warp_scan_inclusive_affine(sv);
#endif
#ifdef CW_USER_OP_VEC
	out[29 * n + g] = warp_reduce_vadd(av, width);
	out[30 * n + g] = warp_scan_inclusive_vadd(av, width);
	out[31 * n + g] = warp_scan_exclusive_vadd(av, width);
	out[32 * n + g] = warp_scan_inclusive_vadd(av);
#endif

	bits[0 * n + g] = warp_match_any(qv, width);
	bits[1 * n + g] = (ulong)warp_match_all(qv, width);
	bits[2 * n + g] = warp_ballot(pred, width);
	bits[3 * n + g] = (ulong)warp_all(pred, width);
	bits[4 * n + g] = (ulong)warp_any(pred, width);
	bits[5 * n + g] = (ulong)warp_none(pred, width);
	bits[6 * n + g] = warp_match_any(qv);
	bits[7 * n + g] = (ulong)warp_match_all(qv);
	bits[8 * n + g] = (ulong)warp_none(pred);
}
