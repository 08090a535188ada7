/* libclwarp algorithms: batched rows of `len` consecutive elements.
 * The *_warp kernels give each warp one row (short rows), the *_group
 * kernels give each work-group one row. Defines beyond common.cl's:
 * ROWS_KIND 1 = reduce, 2 = scan (with INCLUSIVE), 3 = softmax (float). */

#if ROWS_KIND == 1
DEFINE_BLOCK_REDUCE(block_reduce, T, OP, WARP_REDUCE)

__kernel void clwarp_rows_reduce_warp(global const T *in, global T *out, ulong rows, uint len)
{
	ulong row = (ulong)get_group_id(0) * WARPS + ALGO_WARP();
	uint lane = ALGO_LANE();
	uint lim = row < rows ? len : 0;
	global const T *p = in + (row < rows ? row : 0) * len;
	T acc[4] = { ID, ID, ID, ID };
	uint j = lane;
	for (; j + 3 * CLWARP_WARP_SIZE < lim; j += 4 * CLWARP_WARP_SIZE) {
		T x[4];
		for (uint u = 0; u < 4; u++)
			x[u] = p[j + u * CLWARP_WARP_SIZE];
		for (uint u = 0; u < 4; u++)
			acc[u] = OP(acc[u], x[u]);
	}
	for (; j < lim; j += CLWARP_WARP_SIZE)
		acc[0] = OP(acc[0], p[j]);
	T r = WARP_REDUCE(OP(OP(acc[0], acc[1]), OP(acc[2], acc[3])));
	if (row < rows && lane == 0)
		out[row] = r;
}

__kernel void clwarp_rows_reduce_group(global const T *in, global T *out, ulong rows, uint len)
{
	local T sm[WARPS];
	ulong row = get_group_id(0);
	uint lid = get_local_id(0);
	global const T *p = in + row * len;
	T acc[4] = { ID, ID, ID, ID };
	uint j = lid;
	for (; j + 3 * WG < len; j += 4 * WG) {
		T x[4];
		for (uint u = 0; u < 4; u++)
			x[u] = p[j + u * WG];
		for (uint u = 0; u < 4; u++)
			acc[u] = OP(acc[u], x[u]);
	}
	for (; j < len; j += WG)
		acc[0] = OP(acc[0], p[j]);
	T r = block_reduce(OP(OP(acc[0], acc[1]), OP(acc[2], acc[3])), sm, CLWARP_WARP_ARG);
	if (lid == 0)
		out[row] = r;
}
#endif

#if ROWS_KIND == 2
#define ROW_K 4
DEFINE_BLOCK_SCAN(block_scan, T, OP, ID, WARP_SCAN_EXCL, ROW_K, 1)

/* Chunks of 4 * W elements: four loads in flight, then four warp scans. */
__kernel void clwarp_rows_scan_warp(global const T *in, global T *out, ulong rows, uint len)
{
	ulong row = (ulong)get_group_id(0) * WARPS + ALGO_WARP();
	uint lane = ALGO_LANE();
	uint lim = row < rows ? len : 0;
	global const T *p = in + (row < rows ? row : 0) * len;
	global T *q = out + (row < rows ? row : 0) * len;
	T carry = ID;
	for (uint base = 0; base < len; base += ROW_K * CLWARP_WARP_SIZE) {
		T x[ROW_K];
		for (uint u = 0; u < ROW_K; u++) {
			uint j = base + u * CLWARP_WARP_SIZE + lane;
			x[u] = j < lim ? p[j] : (T)(ID);
		}
		for (uint u = 0; u < ROW_K; u++) {
			uint j = base + u * CLWARP_WARP_SIZE + lane;
			T ex = WARP_SCAN_EXCL(x[u]);
			T in_ = OP(ex, x[u]);
			T tot = warp_broadcast(in_, CLWARP_WARP_SIZE - 1u);
			if (j < lim)
				q[j] = OP(carry, INCLUSIVE ? in_ : ex);
			carry = OP(carry, tot);
		}
	}
}

__kernel void clwarp_rows_scan_group(global const T *in, global T *out, ulong rows, uint len)
{
	local T sm[WARPS];
	ulong row = get_group_id(0);
	global const T *p = in + row * len;
	global T *q = out + row * len;
	uint first = (ALGO_WARP() * ROW_K) * CLWARP_WARP_SIZE + ALGO_LANE();
	T carry = ID;
	for (uint base = 0; base < len; base += WG * ROW_K) {
		T a[ROW_K];
		for (uint k = 0; k < ROW_K; k++) {
			uint j = base + first + k * CLWARP_WARP_SIZE;
			a[k] = j < len ? p[j] : (T)(ID);
		}
		T total = block_scan(a, INCLUSIVE, sm, CLWARP_WARP_ARG);
		for (uint k = 0; k < ROW_K; k++) {
			uint j = base + first + k * CLWARP_WARP_SIZE;
			if (j < len)
				q[j] = OP(carry, a[k]);
		}
		carry = OP(carry, total);
	}
}
#endif

#if ROWS_KIND == 3
#define FADD(a, b) ((a) + (b))
DEFINE_BLOCK_REDUCE(block_max, float, fmax, warp_reduce_max)
DEFINE_BLOCK_REDUCE(block_sum, float, FADD, warp_reduce_add)

/* Online softmax (Milakov & Gimelshein): one pass keeps the running
 * maximum m and the sum s of exp(x - m), rescaled when m grows. */
CLWARP_INLINE void softmax_step(float x, float *m, float *s)
{
	if (x > *m) {
		*s = *s * exp(*m - x) + 1.0f;
		*m = x;
	} else if (x != -INFINITY) {
		*s += exp(x - *m);
	}
}

__kernel void clwarp_softmax_warp(global const float *in, global float *out, ulong rows, uint len)
{
	ulong row = (ulong)get_group_id(0) * WARPS + ALGO_WARP();
	uint lane = ALGO_LANE();
	uint lim = row < rows ? len : 0;
	global const float *p = in + (row < rows ? row : 0) * len;
	global float *q = out + (row < rows ? row : 0) * len;
	float m = -INFINITY, s = 0.0f;
	for (uint j = lane; j < lim; j += CLWARP_WARP_SIZE)
		softmax_step(p[j], &m, &s);
	float mx = warp_reduce_max(m);
	float sum = warp_reduce_add(m == -INFINITY ? 0.0f : s * exp(m - mx));
	for (uint j = lane; j < lim; j += CLWARP_WARP_SIZE)
		q[j] = exp(p[j] - mx) / sum;
}

__kernel void clwarp_softmax_group(global const float *in, global float *out, ulong rows, uint len)
{
	local float sm[WARPS];
	ulong row = get_group_id(0);
	global const float *p = in + row * len;
	global float *q = out + row * len;
	float m = -INFINITY, s = 0.0f;
	for (uint j = get_local_id(0); j < len; j += WG)
		softmax_step(p[j], &m, &s);
	float mx = block_max(m, sm, CLWARP_WARP_ARG);
	float sum = block_sum(m == -INFINITY ? 0.0f : s * exp(m - mx), sm, CLWARP_WARP_ARG);
	for (uint j = get_local_id(0); j < len; j += WG)
		q[j] = exp(p[j] - mx) / sum;
}
#endif
