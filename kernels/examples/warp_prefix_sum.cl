/* Inclusive prefix sum of each warp, written by hand (Kogge-Stone): at step d
 * every lane adds the value d lanes below it, d = 1, 2, 4, ... The CUDA version
 * is t = __shfl_up_sync(mask, v, d); if (lane >= d) v += t;
 * Every lane calls warp_shuffle_up; only the guard on the addition depends on
 * the lane. All ones in: 1 2 3 ... 32 in each warp.
 * warp_prefix_sum_builtin.cl does the same with warp_scan_inclusive_add. */
//! run: -g 64 -l 64 -a int[64]=fill(1) -a out:int[64]
//! expect[0]: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
//! expect[0]@8: 1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8
//! expect[0]@16: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
//! expect[0]@64: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64

kernel void warp_prefix_sum(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	uint lane = warp_lane_id();
	int v = in[i];

	for (uint d = 1; d < warp_size(); d *= 2) {
		int t = warp_shuffle_up(v, d);
		if (lane >= d)
			v += t;
	}
	out[i] = v;
}
