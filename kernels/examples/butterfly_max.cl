/* Butterfly reduction: v = max(v, warp_shuffle_xor(v, m)) for m = 16, 8, 4,
 * 2, 1 leaves the warp's max in every lane (a shuffle_down loop leaves it in
 * lane 0 only). CUDA: v = max(v, __shfl_xor_sync(mask, v, m)).
 * The loop is in a helper function: a function that calls warp functions takes
 * CLWARP_WARP_PARAM and its caller passes CLWARP_WARP_ARG. */
//! run: -g 64 -l 64 -a int[64]=(i*37)%101 -a out:int[64]
//! expect[0]: 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99
//! expect[0]@8: 84 84 84 84 84 84 84 84 94 94 94 94 94 94 94 94 97 97 97 97 97 97 97 97 100 100 100 100 100 100 100 100 93 93 93 93 93 93 93 93 86 86 86 86 86 86 86 86 96 96 96 96 96 96 96 96 99 99 99 99 99 99 99 99
//! expect[0]@16: 94 94 94 94 94 94 94 94 94 94 94 94 94 94 94 94 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99
//! expect[0]@64: 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100

int max_xor(CLWARP_WARP_PARAM, int v)
{
	for (uint m = warp_size() / 2; m > 0; m /= 2)
		v = max(v, warp_shuffle_xor(v, m));
	return v;
}

kernel void butterfly_max(global const int *in, global int *out)
{
	size_t i = get_global_id(0);

	out[i] = max_xor(CLWARP_WARP_ARG, in[i]);
}
