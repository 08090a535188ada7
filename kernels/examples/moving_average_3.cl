/* Moving average over 3 points, out[i] = (in[i] + in[i+1] + in[i+2]) / 3, with
 * the two neighbours fetched by warp_shuffle_down by 1 and by 2 (CUDA:
 * __shfl_down_sync). A shuffle never crosses the warp: near the warp's end the
 * lanes above do not exist, so the last two lanes average the 2 and 1 points
 * they have. Two work-groups of one warp each show that every warp restarts. */
//! run: -g 64 -l 32 -a float[64]=(i*7)%11 -a out:float[64]
//! expect[0]: 3.3333333333333335 6.666666666666667 6.333333333333333 6.0 5.666666666666667 5.333333333333333 5.0 4.666666666666667 4.333333333333333 4.0 3.6666666666666665 3.3333333333333335 6.666666666666667 6.333333333333333 6.0 5.666666666666667 5.333333333333333 5.0 4.666666666666667 4.333333333333333 4.0 3.6666666666666665 3.3333333333333335 6.666666666666667 6.333333333333333 6.0 5.666666666666667 5.333333333333333 5.0 4.666666666666667 4.5 8.0 3.6666666666666665 3.3333333333333335 6.666666666666667 6.333333333333333 6.0 5.666666666666667 5.333333333333333 5.0 4.666666666666667 4.333333333333333 4.0 3.6666666666666665 3.3333333333333335 6.666666666666667 6.333333333333333 6.0 5.666666666666667 5.333333333333333 5.0 4.666666666666667 4.333333333333333 4.0 3.6666666666666665 3.3333333333333335 6.666666666666667 6.333333333333333 6.0 5.666666666666667 5.333333333333333 5.0 3.0 1.0

kernel void moving_average_3(global const float *in, global float *out)
{
	size_t i = get_global_id(0);
	uint lane = warp_lane_id();
	float x0 = in[i];
	float x1 = warp_shuffle_down(x0, 1);
	float x2 = warp_shuffle_down(x0, 2);
	float sum = x0, n = 1.0f;

	/* Decide after the shuffles, never around them. */
	if (lane + 1 < warp_size()) {
		sum += x1;
		n += 1.0f;
	}
	if (lane + 2 < warp_size()) {
		sum += x2;
		n += 1.0f;
	}
	out[i] = sum / n;
}
