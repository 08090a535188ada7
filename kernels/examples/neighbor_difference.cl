/* Neighbor difference: out[i] = in[i+1] - in[i], with in[i+1] taken from the
 * next lane's register instead of from memory.
 * warp_shuffle_down(v, 1) is CUDA's __shfl_down_sync(0xffffffff, v, 1): lane L
 * gets the v of lane L+1. The last lane of a warp has nobody above it (it gets
 * its own v back), so it writes 0. Every lane calls the shuffle; the branch on
 * the lane comes after it. Input i*i: the odd numbers 1 3 5 ... 61, then 0. */
//! run: -g 32 -l 32 -a int[32]=i*i -a out:int[32]
//! expect[0]: 1 3 5 7 9 11 13 15 17 19 21 23 25 27 29 31 33 35 37 39 41 43 45 47 49 51 53 55 57 59 61 0
//! expect[0]@8: 1 3 5 7 9 11 13 0 17 19 21 23 25 27 29 0 33 35 37 39 41 43 45 0 49 51 53 55 57 59 61 0
//! expect[0]@16: 1 3 5 7 9 11 13 15 17 19 21 23 25 27 29 0 33 35 37 39 41 43 45 47 49 51 53 55 57 59 61 0

kernel void neighbor_difference(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int v = in[i];
	int next = warp_shuffle_down(v, 1);
	int d = next - v;

	if (warp_lane_id() == warp_size() - 1)
		d = 0;
	out[i] = d;
}
