/* libclwarp's warp_sort_descending(key, width) for float keys on its local
 * backend (warps of 32 work-items emulated in local memory), spelled out.
 * Each work-item ranks its key among its segment's (width lanes) through
 * local memory and fetches the key of the lane that lands on its place.
 * The float's sort key is its IEEE total order as an unsigned integer;
 * descending sorts the complemented keys. -DSHIFT_KEY picks the sign mask
 * by an arithmetic shift instead of a select: the same bits. */

#define W 32u

uint sort_key(float v)
{
	uint b = as_uint(v);
#ifdef SHIFT_KEY
	uint k = b ^ ((uint)(as_int(b) >> 31) | 0x80000000u);
	return (b & 0x7fffffffu) > 0x7f800000u ? 0xffffffffu : k;
#else
	return (b & 0x7fffffffu) > 0x7f800000u ? 0xffffffffu : (b & 0x80000000u) ? ~b : b | 0x80000000u;
#endif
}

/* The lane of the warp whose key lands on the caller's place. */
uint rank_source(local ulong *scratch, ulong key, uint w)
{
	uint lid = get_local_id(0), seg_lane = lid & (W - 1u) & (w - 1u);
	local ulong *seg = scratch + (lid - seg_lane);
	uint rank = 0u;
	scratch[lid] = key;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint j = 0u; j < w; j++) {
		ulong other = seg[j];
		rank += other < key || (other == key && j < seg_lane);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	seg[min(rank, w - 1u)] = lid & (W - 1u);
	barrier(CLK_LOCAL_MEM_FENCE);
	uint src = (uint)scratch[lid];
	barrier(CLK_LOCAL_MEM_FENCE);
	return src;
}

float shuffle(local ulong *scratch, float v, uint src_lane)
{
	uint lid = get_local_id(0);
	scratch[lid] = as_uint(v);
	barrier(CLK_LOCAL_MEM_FENCE);
	ulong r = scratch[(lid & ~(W - 1u)) + (src_lane & (W - 1u))];
	barrier(CLK_LOCAL_MEM_FENCE);
	return as_float((uint)r);
}

float sort(local ulong *scratch, float key, uint descending, uint width)
{
	uint k = sort_key(key);
	return shuffle(scratch, key, rank_source(scratch, descending ? ~k : k, min(width, W)));
}

kernel void sort_width(global const float *keys, global const ulong *vals, global const float *ex_in,
		       uint width, global float *keys_out, global uint *lanes_out, global ulong *vals_out,
		       global float *ex_out, local ulong *scratch)
{
	uint g = get_global_id(0), n = get_global_size(0);
	float key = keys[g];

	keys_out[0 * n + g] = sort(scratch, key, 0u, width);
	keys_out[1 * n + g] = sort(scratch, key, 1u, width);
}
