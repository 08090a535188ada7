/* Rank each warp's scores, largest first, and keep where each came from:
 * warp_sort_pairs_descending sorts the keys across the warp (lane 0 gets
 * the largest) and moves each value with its key. The sort is stable, so
 * equal scores keep their input order. CUDA has no warp sort intrinsic;
 * cub::WarpMergeSort does this through shared memory. The first k lanes
 * then hold the warp's top k. */
//! run: -g 64 -l 64 -a float[64]=(i*7)%13 -a out:float[64] -a out:int[64]
//! expect[0]: 12.0 12.0 11.0 11.0 10.0 10.0 9.0 9.0 9.0 8.0 8.0 8.0 7.0 7.0 7.0 6.0 6.0 5.0 5.0 4.0 4.0 3.0 3.0 2.0 2.0 2.0 1.0 1.0 1.0 0.0 0.0 0.0 12.0 12.0 12.0 11.0 11.0 11.0 10.0 10.0 10.0 9.0 9.0 8.0 8.0 7.0 7.0 6.0 6.0 5.0 5.0 5.0 4.0 4.0 4.0 3.0 3.0 3.0 2.0 2.0 1.0 1.0 0.0 0.0
//! expect[1]: 11 24 9 22 7 20 5 18 31 3 16 29 1 14 27 12 25 10 23 8 21 6 19 4 17 30 2 15 28 0 13 26 37 50 63 35 48 61 33 46 59 44 57 42 55 40 53 38 51 36 49 62 34 47 60 32 45 58 43 56 41 54 39 52

kernel void sort_scores(global const float *score, global float *sorted, global int *index)
{
	size_t i = get_global_id(0);
	float key = score[i];
	int from = (int)i;

	warp_sort_pairs_descending(&key, &from);
	sorted[i] = key;
	index[i] = from;
}
