/* Dot product: each lane multiplies its pair, warp_reduce_add sums the warp
 * (every lane gets the sum; CUDA: a __shfl_down_sync loop, or
 * __reduce_add_sync on sm_80), and lane 0 adds it to the result with one
 * atomic per warp instead of one per element. */
//! run: -g 256 -l 64 -a int[256]=(i%7)-3 -a int[256]=(i%5)+1 -a out:int[1]=fill(0)
//! expect[0]: -19

kernel void dot_product(global const int *a, global const int *b, global int *out)
{
	size_t i = get_global_id(0);
	int s = warp_reduce_add(a[i] * b[i]);

	if (warp_lane_id() == 0)
		atomic_add(out, s);
}
