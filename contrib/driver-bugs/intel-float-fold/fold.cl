/* Intel's OpenCL CPU runtime (2026.2.0) reorders a float sum. Work-groups
 * of 24 x 4; each work-item adds the 32 values of its "warp" (32
 * consecutive linear local ids, through local memory) strictly left to
 * right, from the first lane of its segment of `width` lanes (32 here) to
 * the segment's end. The compiler vectorises the loop into partial sums
 * added at the end, which OpenCL C allows only with
 * -cl-unsafe-math-optimizations or -cl-fast-relaxed-math. -DNO_VECTORIZE puts
 * "#pragma clang loop vectorize(disable)" on the loop (libclwarp's
 * workaround, kernels/warp/local.cl). This is the local warp backend's
 * warp_reduce_add as libclwarp builds it, spelled out. */
static inline uint linear_id(void)
{
	return (uint)(get_local_id(0) + get_local_size(0) *
		(get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

kernel void fold(global const float *a, global float *out, local ulong *scratch, uint width)
{
	uint lid = linear_id();
	uint g = (uint)get_group_id(0) * 96u + lid;
	uint w = min(width, 32u), start = (lid & 31u) & ~(w - 1u), first = start, end = start + max(w, 1u);

	scratch[lid] = (ulong)as_uint(a[g]);
	barrier(CLK_LOCAL_MEM_FENCE);
	local const ulong *warp = scratch + (lid & ~31u);
	float acc = as_float((uint)warp[first]);
#ifdef NO_VECTORIZE
#pragma clang loop vectorize(disable)
#endif
	for (uint i = first + 1u; i < end; i++)
		acc = acc + as_float((uint)warp[i]);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[g] = acc;
}
