/* libclwarp intel backend: cl_intel_subgroups, sub-groups pinned to
 * CLWARP_WARP_SIZE by intel_reqd_sub_group_size. Collectives, ids, votes,
 * warp_barrier and the typed shuffles are in common.cl; this file supplies
 * raw uint/ulong shuffles and the ballot. */

#pragma OPENCL EXTENSION cl_intel_subgroups : enable

/* intel_sub_group_shuffle_down(cur, next, delta) reads next past the warp
 * edge; passing v twice and letting common.cl discard those lanes keeps the
 * contract (own value) without relying on the wrap. */
#define CLWARP_INTEL_RAW(BITS) \
	CLWARP_OVERLOAD BITS clwarp_sg_idx(BITS v, uint src_lane) { return intel_sub_group_shuffle(v, src_lane); } \
	CLWARP_OVERLOAD BITS clwarp_sg_down(BITS v, uint delta) { return intel_sub_group_shuffle_down(v, v, delta); } \
	CLWARP_OVERLOAD BITS clwarp_sg_up(BITS v, uint delta) { return intel_sub_group_shuffle_up(v, v, delta); } \
	CLWARP_OVERLOAD BITS clwarp_sg_xor(BITS v, uint mask) { return intel_sub_group_shuffle_xor(v, mask); }

CLWARP_INTEL_RAW(uint)
CLWARP_INTEL_RAW(ulong)

CLWARP_TYPES(CLWARP_SG_SHUFFLES)

CLWARP_OVERLOAD ulong warp_ballot(int pred)
{
	return sub_group_reduce_add((ulong)(pred != 0) << get_sub_group_local_id());
}
