/* libclwarp khr backend: cl_khr_subgroups (or OpenCL C 3.0's
 * __opencl_c_subgroups), sub-groups pinned to CLWARP_WARP_SIZE by
 * intel_reqd_sub_group_size on every kernel, or (CLWARP_KHR_NATIVE) left at
 * the device's own width, which the engine measured and checks per launch.
 * Collectives, ids, votes, warp_barrier and the typed shuffles are in
 * common.cl; this file supplies raw uint/ulong shuffles and the ballot. */

/* The shuffle/ballot extensions need no pragma (PoCL 6.0 warns on one). */

#ifdef CLWARP_KHR_SHUFFLE
#define CLWARP_KHR_RAW_IDX(BITS) \
	CLWARP_OVERLOAD BITS clwarp_sg_idx(BITS v, uint src_lane) { return sub_group_shuffle(v, src_lane); } \
	CLWARP_OVERLOAD BITS clwarp_sg_xor(BITS v, uint mask) { return sub_group_shuffle_xor(v, mask); }
#else
/* No shuffle extension: every lane broadcasts in turn and each keeps the
 * value it asked for. W broadcasts, but needs only core cl_khr_subgroups. */
#define CLWARP_KHR_RAW_IDX(BITS) \
	CLWARP_OVERLOAD BITS clwarp_sg_idx(BITS v, uint src_lane) \
	{ \
		BITS r = v; \
		for (uint i = 0; i < CLWARP_WARP_SIZE; i++) { \
			BITS t = sub_group_broadcast(v, i); \
			r = src_lane == i ? t : r; \
		} \
		return r; \
	} \
	CLWARP_OVERLOAD BITS clwarp_sg_xor(BITS v, uint mask) \
	{ \
		return clwarp_sg_idx(v, get_sub_group_local_id() ^ mask); \
	}
#endif

#ifdef CLWARP_KHR_SHUFFLE_RELATIVE
#define CLWARP_KHR_RAW_RELATIVE(BITS) \
	CLWARP_OVERLOAD BITS clwarp_sg_down(BITS v, uint delta) { return sub_group_shuffle_down(v, delta); } \
	CLWARP_OVERLOAD BITS clwarp_sg_up(BITS v, uint delta) { return sub_group_shuffle_up(v, delta); }
#else
#define CLWARP_KHR_RAW_RELATIVE(BITS) \
	CLWARP_OVERLOAD BITS clwarp_sg_down(BITS v, uint delta) \
	{ \
		uint lane = get_sub_group_local_id(); \
		return clwarp_sg_idx(v, delta < CLWARP_WARP_SIZE - lane ? lane + delta : lane); \
	} \
	CLWARP_OVERLOAD BITS clwarp_sg_up(BITS v, uint delta) \
	{ \
		uint lane = get_sub_group_local_id(); \
		return clwarp_sg_idx(v, delta <= lane ? lane - delta : lane); \
	}
#endif

CLWARP_KHR_RAW_IDX(uint)
CLWARP_KHR_RAW_IDX(ulong)
CLWARP_KHR_RAW_RELATIVE(uint)
CLWARP_KHR_RAW_RELATIVE(ulong)

CLWARP_TYPES(CLWARP_SG_SHUFFLES)

#ifdef CLWARP_KHR_BALLOT
CLWARP_OVERLOAD ulong warp_ballot(int pred)
{
	uint4 bits = sub_group_ballot(pred != 0);
	return ((ulong)bits.y << 32) | bits.x;
}
#else
CLWARP_OVERLOAD ulong warp_ballot(int pred)
{
	return sub_group_reduce_add((ulong)(pred != 0) << get_sub_group_local_id());
}
#endif
