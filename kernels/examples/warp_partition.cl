/* Stable partition of each warp's elements around a pivot, without shared
 * memory: the values below the pivot first, then the others, each in their
 * input order. warp_ballot (CUDA: __ballot_sync) gives a bit per lane; a
 * "below" lane's slot is the number of set bits under its own lane
 * (popcount(ballot & ((1 << lane) - 1)), CUDA: __popc(ballot & lanemask_lt)).
 * The other lanes count themselves with an exclusive scan. */
//! run: -g 64 -l 64 -a int[64]=(i*37)%100 -a int:50 -a out:int[64]
//! expect[0]: 0 37 11 48 22 33 7 44 18 29 3 40 14 25 36 10 47 74 85 59 96 70 81 55 92 66 77 51 88 62 99 73 21 32 6 43 17 28 2 39 13 24 35 9 46 20 31 84 58 95 69 80 54 91 65 76 50 87 61 98 72 83 57 94
//! expect[0]@8: 0 37 11 48 22 74 85 59 33 7 44 18 96 70 81 55 29 3 40 14 92 66 77 51 25 36 10 47 88 62 99 73 21 32 6 43 84 58 95 69 17 28 2 39 80 54 91 65 13 24 35 76 50 87 61 98 9 46 20 31 72 83 57 94
//! expect[0]@16: 0 37 11 48 22 33 7 44 18 74 85 59 96 70 81 55 29 3 40 14 25 36 10 47 92 66 77 51 88 62 99 73 21 32 6 43 17 28 2 39 84 58 95 69 80 54 91 65 13 24 35 9 46 20 31 76 50 87 61 98 72 83 57 94
//! expect[0]@64: 0 37 11 48 22 33 7 44 18 29 3 40 14 25 36 10 47 21 32 6 43 17 28 2 39 13 24 35 9 46 20 31 74 85 59 96 70 81 55 92 66 77 51 88 62 99 73 84 58 95 69 80 54 91 65 76 50 87 61 98 72 83 57 94

kernel void warp_partition(global const int *in, int pivot, global int *out)
{
	size_t i = get_global_id(0);
	uint lane = warp_lane_id();
	size_t first = i - lane;	/* lane 0's element */
	int v = in[i];
	int below = v < pivot;

	ulong ballot = warp_ballot(below);
	uint nbelow = (uint)popcount(ballot);
	uint rank_below = (uint)popcount(ballot & ((1ul << lane) - 1ul));
	uint rank_above = warp_scan_exclusive_add((uint)!below);

	out[first + (below ? rank_below : nbelow + rank_above)] = v;
}
