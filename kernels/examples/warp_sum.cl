/* One sum per warp with a halving warp_shuffle_down loop, the classic CUDA
 * reduction (as in alpaka's warp example): v += __shfl_down_sync(mask, v, d)
 * for d = 16, 8, 4, 2, 1. After log2(warp size) steps lane 0 holds the warp's
 * sum; the other lanes hold partial sums, so only lane 0 writes.
 * 2 warps of the inputs 1..64: 1+...+32 = 528 and 33+...+64 = 1552.
 * nout, the length of out, keeps smaller warps (more sums) inside the buffer. */
//! run: -g 64 -l 64 -a int[64]=iota(1,1) -a out:int[2] -a uint:2
//! expect[0]: 528 1552
//! expect[0]@8: 36 100
//! expect[0]@16: 136 392
//! expect[0]@64: 2080 0

kernel void warp_sum(global const int *in, global int *out, uint nout)
{
	size_t i = get_global_id(0);
	int v = in[i];

	for (uint d = warp_size() / 2; d > 0; d /= 2)
		v += warp_shuffle_down(v, d);

	size_t warp = i / warp_size();
	if (warp_lane_id() == 0 && warp < nout)
		out[warp] = v;
}
