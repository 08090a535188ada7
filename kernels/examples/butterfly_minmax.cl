/* Min and max in one butterfly loop (two warp_shuffle_xor per step, CUDA:
 * __shfl_xor_sync), then a conditional output: as every lane knows both, each
 * marks itself 1 if it holds the warp's max, -1 if it holds the min, 0
 * otherwise. Ties mark every lane that holds the value. */
//! run: -g 64 -l 64 -a int[64]=(i*i)%17 -a out:int[64]
//! expect[0]: -1 0 0 0 1 0 0 0 0 0 0 0 0 1 0 0 0 -1 0 0 0 1 0 0 0 0 0 0 0 0 1 0 0 0 -1 0 0 0 1 0 0 0 0 0 0 0 0 1 0 0 0 -1 0 0 0 1 0 0 0 0 0 0 0 0
//! expect[0]@8: -1 0 0 0 1 0 0 0 0 0 0 -1 0 1 0 0 0 -1 0 0 0 1 0 0 0 0 0 0 -1 0 1 0 0 0 -1 0 0 0 1 0 -1 0 0 0 0 -1 0 1 0 0 0 -1 0 0 0 1 0 -1 1 0 0 1 -1 0

kernel void butterfly_minmax(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int v = in[i];
	int lo = v, hi = v;

	for (uint m = warp_size() / 2; m > 0; m /= 2) {
		lo = min(lo, warp_shuffle_xor(lo, m));
		hi = max(hi, warp_shuffle_xor(hi, m));
	}
	out[i] = v == hi ? 1 : v == lo ? -1 : 0;
}
