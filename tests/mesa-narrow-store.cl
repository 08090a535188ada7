/* Mesa rusticl 25.0 (llvmpipe, LLVM 19) miscompiles this kernel, which
 * calls no warp function: the store of 0 to out[4i+3] also zeroes
 * out[4i+4], the first byte of the next work-item (and runs past the
 * buffer's end on the last one). PoCL 3.1 and 6.0 give the expected bytes.
 * test-warp-ops leaves 8- and 16-bit types out of rusticl's local backend
 * because of it. Run:
 *   OCL_ICD_VENDORS=/etc/OpenCL/vendors/rusticl.icd RUSTICL_ENABLE=llvmpipe \
 *   clwarp-run --check tests/mesa-narrow-store.cl
 * Seen in the CI's Debian 13 root (mesa-opencl-icd 25.0.7). */
//! run: -g 8 -l 8 -a char[8]=-128,3,5,7,-1,2,4,6 -a out:char[32] -a local:ulong[8]
//! expect: -128 -128 -128 0 3 3 3 0 5 5 5 0 7 7 7 0 -1 -1 -1 0 2 2 2 0 4 4 4 0 6 6 6 0

/* What the local backend's exclusive scan does at a warp width of 1:
 * publish the value, fold nothing, return the identity. */
char exclusive_or_one_lane(local ulong *s, char v)
{
	uint lid = get_local_id(0);
	uint lane = 0, start = 0;
	s[lid] = (ulong)(uint)as_uchar(v);
	barrier(CLK_LOCAL_MEM_FENCE);
	local const ulong *warp = s + lid;
	uint first = start, end = lane > start ? lane : start + 1u;
	char acc = as_char((uchar)(uint)warp[first]);
	for (uint i = first + 1u; i < end; i++)
		acc = acc | as_char((uchar)(uint)warp[i]);
	barrier(CLK_LOCAL_MEM_FENCE);
	return lane > start ? acc : (char)0;
}

kernel void k(global const char *in, global char *out, local ulong *s)
{
	size_t i = get_global_id(0);
	char v = in[i];
	out[4 * i + 0] = v;
	out[4 * i + 1] = v;
	out[4 * i + 2] = v;
	out[4 * i + 3] = exclusive_or_one_lane(s, v);
}
