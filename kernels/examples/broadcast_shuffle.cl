/* Broadcast and shuffle together: lane 0's value chooses a rotation that the
 * whole warp applies. warp_broadcast gives every lane the amount r, then
 * warp_shuffle(v, lane + r) reads from the lane r places up, wrapping around
 * the warp (source lanes are taken modulo the warp size, like CUDA's
 * __shfl_sync(mask, v, lane + r)). */
//! run: -g 64 -l 64 -a int[64]=(i*i+5)%61 -a out:int[64]
//! expect[0]: 30 41 54 8 25 44 4 27 52 18 47 17 50 24 0 39 19 1 46 32 20 10 2 57 53 51 51 5 6 9 14 21 8 54 41 30 21 14 9 6 5 6 9 53 57 2 10 20 32 46 1 19 39 0 24 50 17 47 18 52 27 4 44 25
//! expect[0]@8: 30 41 54 5 6 9 14 21 8 25 44 4 27 52 18 47 50 24 0 39 19 1 46 17 32 20 10 2 57 53 51 51 32 46 1 53 57 2 10 20 24 50 17 47 18 19 39 0 25 8 54 41 52 27 4 44 6 9 30 21 14 9 6 5
//! expect[0]@16: 30 41 54 8 25 44 4 27 52 18 47 5 6 9 14 21 50 24 0 39 19 1 46 32 20 10 2 57 53 51 51 17 32 46 1 19 39 0 24 50 17 47 18 53 57 2 10 20 25 8 54 41 30 21 14 9 6 5 6 9 52 27 4 44
//! expect[0]@64: 30 41 54 8 25 44 4 27 52 18 47 17 50 24 0 39 19 1 46 32 20 10 2 57 53 51 51 53 57 2 10 20 32 46 1 19 39 0 24 50 17 47 18 52 27 4 44 25 8 54 41 30 21 14 9 6 5 6 9 5 6 9 14 21

kernel void broadcast_shuffle(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int v = in[i];
	uint r = (uint)warp_broadcast(v, 0) % warp_size();

	out[i] = warp_shuffle(v, warp_lane_id() + r);
}
