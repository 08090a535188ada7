/* One sum per warp: a halving warp_shuffle_down loop, the CUDA way. */
/* SPDX-License-Identifier: MIT */

kernel void warp_sum(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int v = in[i];

	for (uint d = warp_size() / 2; d > 0; d /= 2)
		v += warp_shuffle_down(v, d);
	/* After log2(warp size) steps lane 0 holds the warp's sum. */
	if (warp_lane_id() == 0)
		out[i / warp_size()] = v;
}
