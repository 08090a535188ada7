/* libclwarp algorithms: one-launch reduction. A fixed grid shares the
 * input's whole tiles out evenly: each work-group streams a contiguous run
 * of them (CUB's "even share"), which on an H200 read 2-3 % faster than a
 * grid-wide stride (docs/design/reduce-scan.md, "Reduce"). Vector loads go into independent accumulators; each work-group
 * reduces to one partial, and the last work-group to finish (counted with
 * an atomic) folds the partials and writes the result. `restrict` lets
 * NVIDIA's compiler load through the read-only cache (ld.global.nc).
 *
 * The share's loop counts vectors from lo + lid, like the stride it
 * replaced: a loop over tile numbers (uniform in the work-group) made
 * every result wrong on PoCL 5.0 (its vector loops rolled or unrolled) and
 * on PoCL 6.0 (rolled); docs/algorithms.md, "Kernels PoCL compiles right". */

DEFINE_BLOCK_REDUCE(block_reduce, T, OP, WARP_REDUCE)


__kernel void clwarp_reduce(global const T *restrict in, ulong n, global T *result,
			    volatile global T *partials, volatile global uint *counter)
{
	local T sm[WARPS];
	local uint last_shared;
	ulong gid = get_global_id(0), threads = get_global_size(0);
	uint groups = get_num_groups(0);
	uint lid = get_local_id(0);
	ulong nv = n / VEC;
	global const T_VEC *restrict v = (global const T_VEC *)in;
	T acc[REDUCE_UNROLL][VEC];

	/* Scalar accumulators: the same code as vector ones on GPUs, and no
	 * vector splats (Oclgrind takes their undefined lanes for data). */
	for (uint u = 0; u < REDUCE_UNROLL; u++)
		for (uint c = 0; c < VEC; c++)
			acc[u][c] = ID;
	/* Work-group g streams vectors [lo, hi): whole tiles of WG *
	 * REDUCE_UNROLL vectors, tiles * g / groups up to tiles * (g + 1) /
	 * groups. The vectors after the last whole tile, then the elements
	 * after the last whole vector, are strided over the grid. */
	ulong tiles = nv / (WG * REDUCE_UNROLL);
	ulong group = get_group_id(0);
	ulong lo = tiles * group / groups * (WG * REDUCE_UNROLL);
	ulong hi = tiles * (group + 1) / groups * (WG * REDUCE_UNROLL);
	/* Not unrolled further: nv would put 4 x REDUCE_UNROLL loads in
	 * flight, and int sums ran 3 % slower so. */
	_Pragma("unroll 1")
	for (ulong i = lo + lid; i < hi; i += WG * REDUCE_UNROLL) {
		T_VEC x[REDUCE_UNROLL];
		for (uint u = 0; u < REDUCE_UNROLL; u++)
			x[u] = v[i + u * WG];
		for (uint u = 0; u < REDUCE_UNROLL; u++) {
			T e[VEC];
			VEC_SPLIT(e, x[u]);
			for (uint c = 0; c < VEC; c++)
				acc[u][c] = OP(acc[u][c], e[c]);
		}
	}
	for (ulong i = tiles * (WG * REDUCE_UNROLL) + gid; i < nv; i += threads) {
		T e[VEC];
		T_VEC x = v[i];
		VEC_SPLIT(e, x);
		for (uint c = 0; c < VEC; c++)
			acc[0][c] = OP(acc[0][c], e[c]);
	}
	T s = acc[0][0];
	for (uint u = 0; u < REDUCE_UNROLL; u++)
		for (uint c = u == 0 ? 1 : 0; c < VEC; c++)
			s = OP(s, acc[u][c]);
	/* The n % VEC elements after the last whole vector. */
	if (gid < n - nv * VEC)
		s = OP(s, in[nv * VEC + gid]);

	s = block_reduce(s, sm, CLWARP_WARP_ARG);
	/* One work-group (n up to WG * 16, or small n: ALGO_SMALL's wider
	 * work-group, src/algorithms.c): no partials, no ticket. */
	if (groups == 1) {
		if (lid == 0)
			result[0] = s;
		return;
	}
	if (lid == 0) {
		value_store(&partials[get_group_id(0)], s);
		GLOBAL_FENCE();
		last_shared = atomic_inc(counter) == groups - 1;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	/* Uniform over the work-group: the whole last work-group goes in. */
	if (last_shared) {
		GLOBAL_FENCE();
		T r = ID;
		for (uint g = lid; g < groups; g += WG)
			r = OP(r, value_load(&partials[g]));
		r = block_reduce(r, sm, CLWARP_WARP_ARG);
		if (lid == 0) {
			result[0] = r;
			atomic_xchg(counter, 0u);
		}
	}
}
