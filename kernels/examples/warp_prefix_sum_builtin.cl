/* Prefix sums with the built-in scans: warp_scan_inclusive_add (lane L gets
 * in[0] + ... + in[L] of its warp) and warp_scan_exclusive_add (in[0] + ... +
 * in[L-1]; lane 0 gets 0, the identity). CUDA has no single intrinsic for this
 * (cub::WarpScan); OpenCL 2.0 has sub_group_scan_inclusive_add.
 * warp_prefix_sum.cl builds the inclusive scan from warp_shuffle_up. */
//! run: -g 64 -l 32 -a int[64]=iota -a out:int[64] -a out:int[64]
//! expect[0]: 0 1 3 6 10 15 21 28 36 45 55 66 78 91 105 120 136 153 171 190 210 231 253 276 300 325 351 378 406 435 465 496 32 65 99 134 170 207 245 284 324 365 407 450 494 539 585 632 680 729 779 830 882 935 989 1044 1100 1157 1215 1274 1334 1395 1457 1520
//! expect[1]: 0 0 1 3 6 10 15 21 28 36 45 55 66 78 91 105 120 136 153 171 190 210 231 253 276 300 325 351 378 406 435 465 0 32 65 99 134 170 207 245 284 324 365 407 450 494 539 585 632 680 729 779 830 882 935 989 1044 1100 1157 1215 1274 1334 1395 1457

kernel void warp_prefix_sum_builtin(global const int *in, global int *inclusive,
				    global int *exclusive)
{
	size_t i = get_global_id(0);
	int v = in[i];

	inclusive[i] = warp_scan_inclusive_add(v);
	exclusive[i] = warp_scan_exclusive_add(v);
}
