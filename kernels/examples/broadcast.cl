/* Broadcast: every lane gets lane 0's value, without shared memory.
 * warp_broadcast(v, 0) is CUDA's __shfl_sync(0xffffffff, v, 0). The source
 * lane must be the same for the whole warp (use warp_shuffle for a per-lane
 * source). Each warp gets its own lane 0: in = 3i+1 gives 1 and 97. */
//! run: -g 64 -l 64 -a int[64]=i*3+1 -a out:int[64]
//! expect[0]: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97
//! expect[0]@8: 1 1 1 1 1 1 1 1 25 25 25 25 25 25 25 25 49 49 49 49 49 49 49 49 73 73 73 73 73 73 73 73 97 97 97 97 97 97 97 97 121 121 121 121 121 121 121 121 145 145 145 145 145 145 145 145 169 169 169 169 169 169 169 169
//! expect[0]@16: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 49 49 49 49 49 49 49 49 49 49 49 49 49 49 49 49 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 145 145 145 145 145 145 145 145 145 145 145 145 145 145 145 145
//! expect[0]@64: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1

kernel void broadcast(global const int *in, global int *out)
{
	size_t i = get_global_id(0);

	out[i] = warp_broadcast(in[i], 0);
}
