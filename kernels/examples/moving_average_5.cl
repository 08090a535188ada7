/* A 5-point binomial smoothing filter across warp boundaries:
 *   y[i] = (x[i-2] + 4 x[i-1] + 6 x[i] + 4 x[i+1] + x[i+2]) / 16,
 * and y = 0 at the 2 first and the 2 last elements of the array.
 * Neighbours inside the warp come from warp_shuffle_up/_down (CUDA:
 * __shfl_up_sync/__shfl_down_sync). Those in the neighbouring warps are loaded from
 * global memory by the edge lanes (a "halo") and handed to the lane that needs
 * them with warp_shuffle (CUDA: __shfl_sync). The result is the same for every
 * warp size from 2 up. */
//! run: -g 128 -l 64 -a float[128]=(i*i)%23 -a out:float[128]
//! expect[0]: 0.0 0.0 5.0 8.5625 9.8125 8.75 8.25 9.75 11.8125 11.5625 9.0 7.0 7.0 9.0 11.5625 11.8125 9.75 8.25 8.75 9.8125 8.5625 5.0 2.0 1.0 2.0 5.0 8.5625 9.8125 8.75 8.25 9.75 11.8125 11.5625 9.0 7.0 7.0 9.0 11.5625 11.8125 9.75 8.25 8.75 9.8125 8.5625 5.0 2.0 1.0 2.0 5.0 8.5625 9.8125 8.75 8.25 9.75 11.8125 11.5625 9.0 7.0 7.0 9.0 11.5625 11.8125 9.75 8.25 8.75 9.8125 8.5625 5.0 2.0 1.0 2.0 5.0 8.5625 9.8125 8.75 8.25 9.75 11.8125 11.5625 9.0 7.0 7.0 9.0 11.5625 11.8125 9.75 8.25 8.75 9.8125 8.5625 5.0 2.0 1.0 2.0 5.0 8.5625 9.8125 8.75 8.25 9.75 11.8125 11.5625 9.0 7.0 7.0 9.0 11.5625 11.8125 9.75 8.25 8.75 9.8125 8.5625 5.0 2.0 1.0 2.0 5.0 8.5625 9.8125 8.75 8.25 9.75 11.8125 11.5625 9.0 0.0 0.0

kernel void moving_average_5(global const float *in, global float *out)
{
	const int n = (int)get_global_size(0);
	const int i = (int)get_global_id(0);
	const int w = (int)warp_size();
	const int lane = (int)warp_lane_id();
	float x = in[i];

	/* Halo: lanes 0 and 1 load in[i-2], lanes w-2 and w-1 load in[i+2];
	 * those lie in the previous and the next warp. */
	float left = 0.0f, right = 0.0f;
	if (lane < 2 && i - 2 >= 0)
		left = in[i - 2];
	if (lane >= w - 2 && i + 2 < n)
		right = in[i + 2];

	/* Every lane makes every call. */
	float up2 = warp_shuffle_up(x, 2), up1 = warp_shuffle_up(x, 1);
	float dn1 = warp_shuffle_down(x, 1), dn2 = warp_shuffle_down(x, 2);
	/* in[i-1] for lane 0 is lane 1's left; in[i+1] for lane w-1 is lane w-2's
	 * right (source lanes wrap modulo the warp size). */
	float left1 = warp_shuffle(left, (uint)(lane + 1));
	float right1 = warp_shuffle(right, (uint)(lane + w - 1));

	float xm2 = lane >= 2 ? up2 : left;
	float xm1 = lane >= 1 ? up1 : left1;
	float xp1 = lane + 1 < w ? dn1 : right1;
	float xp2 = lane + 2 < w ? dn2 : right;
	float y = (xm2 + 4.0f * xm1 + 6.0f * x + 4.0f * xp1 + xp2) / 16.0f;

	if (i < 2 || i >= n - 2)
		y = 0.0f;
	out[i] = y;
}
