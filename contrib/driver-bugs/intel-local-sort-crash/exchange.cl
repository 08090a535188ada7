/* libclwarp's warp exchange on its local backend at warp width 8, as the
 * engine builds tests/warp-sort.cl's "exchange" kernel for int, reduced
 * (preprocessed, then every top-level item removed that the crash does not
 * need). A warp shuffle is a write to local memory, a barrier, a read, a
 * barrier. Intel's CPU compiler 2026.2 crashes building it (SIGSEGV in the
 * pass sycl-kernel-reduce-cross-barrier-values). -DVOLATILE_LANE: the two
 * exchange functions read their lane back from a volatile private, a load,
 * which that pass does not copy past a barrier: it builds. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
static inline __attribute__((always_inline)) uint clwarp_linear_local_id(void) {
	return (uint)(get_local_id(0) +
	              get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}
static inline __attribute__((always_inline)) uint clwarp_width(uint width) {
	return min(width, (uint)8);
}
static inline __attribute__((always_inline)) uint warp_lane_id(void) {
	return clwarp_linear_local_id() & ((uint)8 - 1u);
}
#ifdef VOLATILE_LANE
static inline __attribute__((always_inline)) uint exchange_lane(void) {
	volatile uint lane = warp_lane_id();
	return lane;
}
#else
#define exchange_lane warp_lane_id
#endif
static inline __attribute__((always_inline)) ulong
clwarp_local_exchange(local ulong *scratch, ulong bits, uint src_lane) {
	uint lid = clwarp_linear_local_id();
	scratch[lid] = bits;
	barrier(CLK_LOCAL_MEM_FENCE);
	ulong r = scratch[(lid & ~((uint)8 - 1u)) + src_lane];
	barrier(CLK_LOCAL_MEM_FENCE);
	return r;
}
static inline __attribute__((always_inline, overloadable)) int
clwarp_warp_shuffle(local ulong *scratch, int v, uint src_lane) {
	return as_int((uint)clwarp_local_exchange(scratch, as_uint(v), src_lane & ((uint)8 - 1u)));
}

static inline __attribute__((always_inline)) uint clwarp_inverse_odd(uint x) {
	uint y = x;
	for (uint i = 0u; i < 5u; i++)
		y *= 2u - x * y;
	return y;
}
static inline __attribute__((always_inline)) uint2 clwarp_exchange_peer(uint l, uint r, uint n,
                                                                        uint w) {
	uint g = min(n & (0u - n), w), wq = w / g;
	uint inv = clwarp_inverse_odd(n / g) & (wq - 1u);
	uint a = (l - r) & (g - 1u), t = (r + a) % n;
	uint b = ((l / g - t / g) * inv) & (wq - 1u);
	uint p = a * wq + b;
	return (uint2)(p, (p * n + t) / w);
}
static inline __attribute__((always_inline)) uint clwarp_exchange_slot(uint p, uint r, uint n,
                                                                       uint w) {
	uint g = min(n & (0u - n), w);
	return (r + p / (w / g)) % n;
}
static inline __attribute__((always_inline, overloadable)) void
clwarp_warp_exchange_blocked_to_striped(local ulong *__clwarp_scratch, int *items,
                                        uint items_per_lane, uint width) {
	uint n = min(items_per_lane, (uint)32), w = clwarp_width(width);
	uint lane = exchange_lane(), l = lane & (w - 1u), start = lane - l;
	int out[32];
	for (uint k = 0u; k < n; k++)
		out[k] = items[k];
	for (uint r = 0u; r < n; r++) {
		uint s = clwarp_exchange_slot(l, r, n, w);
		int v = items[0];
		for (uint k = 1u; k < n; k++)
			v = k == s ? items[k] : v;
		uint2 peer = clwarp_exchange_peer(l, r, n, w);
		int got = clwarp_warp_shuffle(__clwarp_scratch, v, start + peer.x);
		for (uint k = 0u; k < n; k++)
			out[k] = k == peer.y ? got : out[k];
	}
	for (uint k = 0u; k < n; k++)
		items[k] = out[k];
}
static inline __attribute__((always_inline, overloadable)) void
clwarp_warp_exchange_blocked_to_striped(local ulong *__clwarp_scratch, int *items,
                                        uint items_per_lane) {
	clwarp_warp_exchange_blocked_to_striped(__clwarp_scratch, items, items_per_lane, (uint)8);
}
static inline __attribute__((always_inline, overloadable)) void
clwarp_warp_exchange_striped_to_blocked(local ulong *__clwarp_scratch, int *items,
                                        uint items_per_lane, uint width) {
	uint n = min(items_per_lane, (uint)32), w = clwarp_width(width);
	uint lane = exchange_lane(), l = lane & (w - 1u), start = lane - l;
	int out[32];
	for (uint k = 0u; k < n; k++)
		out[k] = items[k];
	for (uint r = 0u; r < n; r++) {
		uint2 peer = clwarp_exchange_peer(l, r, n, w);
		int v = items[0];
		for (uint k = 1u; k < n; k++)
			v = k == peer.y ? items[k] : v;
		uint s = clwarp_exchange_slot(l, r, n, w);
		int got = clwarp_warp_shuffle(__clwarp_scratch, v, start + (l * n + s) % w);
		for (uint k = 0u; k < n; k++)
			out[k] = k == s ? got : out[k];
	}
	for (uint k = 0u; k < n; k++)
		items[k] = out[k];
}
static inline __attribute__((always_inline, overloadable)) void
clwarp_warp_exchange_striped_to_blocked(local ulong *__clwarp_scratch, int *items,
                                        uint items_per_lane) {
	clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, items, items_per_lane, (uint)8);
}
kernel void exchange(global const int *keys, global const double *vals, global const int *ex_in,
                     uint width, global int *keys_out, global uint *lanes_out,
                     global double *vals_out, global int *ex_out, local ulong *__clwarp_scratch) {
	uint g = get_global_id(0);
	uint n = get_global_size(0);
	{
		int it[1];
		for (uint i = 0; i < (1); i++)
			it[i] = ex_in[(0u) * n + g * (1) + i];
		clwarp_warp_exchange_blocked_to_striped(__clwarp_scratch, it, 1, width);
		for (uint i = 0; i < (1); i++)
			ex_out[((0u) * 17u + (0u)) * n + g * (1) + i] = it[i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 1, width);
		for (uint i = 0; i < (1); i++)
			ex_out[((1u) * 17u + (0u)) * n + g * (1) + i] = it[i];
		for (uint i = 0; i < (1); i++)
			it[i] = ex_in[(0u) * n + g * (1) + i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 1, width);
		for (uint i = 0; i < (1); i++)
			ex_out[((2u) * 17u + (0u)) * n + g * (1) + i] = it[i];
	}
	{
		int it[2];
		for (uint i = 0; i < (2); i++)
			it[i] = ex_in[(1u) * n + g * (2) + i];
		clwarp_warp_exchange_blocked_to_striped(__clwarp_scratch, it, 2, width);
		for (uint i = 0; i < (2); i++)
			ex_out[((0u) * 17u + (1u)) * n + g * (2) + i] = it[i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 2, width);
		for (uint i = 0; i < (2); i++)
			ex_out[((1u) * 17u + (1u)) * n + g * (2) + i] = it[i];
		for (uint i = 0; i < (2); i++)
			it[i] = ex_in[(1u) * n + g * (2) + i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 2, width);
		for (uint i = 0; i < (2); i++)
			ex_out[((2u) * 17u + (1u)) * n + g * (2) + i] = it[i];
	}
	{
		int it[3];
		for (uint i = 0; i < (3); i++)
			it[i] = ex_in[(3u) * n + g * (3) + i];
		clwarp_warp_exchange_blocked_to_striped(__clwarp_scratch, it, 3, width);
		for (uint i = 0; i < (3); i++)
			ex_out[((0u) * 17u + (3u)) * n + g * (3) + i] = it[i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 3, width);
		for (uint i = 0; i < (3); i++)
			ex_out[((1u) * 17u + (3u)) * n + g * (3) + i] = it[i];
		for (uint i = 0; i < (3); i++)
			it[i] = ex_in[(3u) * n + g * (3) + i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 3, width);
		for (uint i = 0; i < (3); i++)
			ex_out[((2u) * 17u + (3u)) * n + g * (3) + i] = it[i];
	}
	{
		int it[4];
		for (uint i = 0; i < (4); i++)
			it[i] = ex_in[(6u) * n + g * (4) + i];
		clwarp_warp_exchange_blocked_to_striped(__clwarp_scratch, it, 4, width);
		for (uint i = 0; i < (4); i++)
			ex_out[((0u) * 17u + (6u)) * n + g * (4) + i] = it[i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 4, width);
		for (uint i = 0; i < (4); i++)
			ex_out[((1u) * 17u + (6u)) * n + g * (4) + i] = it[i];
		for (uint i = 0; i < (4); i++)
			it[i] = ex_in[(6u) * n + g * (4) + i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 4, width);
		for (uint i = 0; i < (4); i++)
			ex_out[((2u) * 17u + (6u)) * n + g * (4) + i] = it[i];
	}
	{
		int it[7];
		for (uint i = 0; i < (7); i++)
			it[i] = ex_in[(10u) * n + g * (7) + i];
		clwarp_warp_exchange_blocked_to_striped(__clwarp_scratch, it, 7, width);
		for (uint i = 0; i < (7); i++)
			ex_out[((0u) * 17u + (10u)) * n + g * (7) + i] = it[i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 7, width);
		for (uint i = 0; i < (7); i++)
			ex_out[((1u) * 17u + (10u)) * n + g * (7) + i] = it[i];
		for (uint i = 0; i < (7); i++)
			it[i] = ex_in[(10u) * n + g * (7) + i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 7, width);
		for (uint i = 0; i < (7); i++)
			ex_out[((2u) * 17u + (10u)) * n + g * (7) + i] = it[i];
	}
	{
		int it[4];
		for (uint i = 0; i < (4); i++)
			it[i] = ex_in[(6u) * n + g * (4) + i];
		clwarp_warp_exchange_blocked_to_striped(__clwarp_scratch, it, 4);
		for (uint i = 0; i < (4); i++)
			ex_out[((3u) * 17u + (6u)) * n + g * (4) + i] = it[i];
		for (uint i = 0; i < (4); i++)
			it[i] = ex_in[(6u) * n + g * (4) + i];
		clwarp_warp_exchange_striped_to_blocked(__clwarp_scratch, it, 4);
		for (uint i = 0; i < (4); i++)
			ex_out[((4u) * 17u + (6u)) * n + g * (4) + i] = it[i];
	}
}