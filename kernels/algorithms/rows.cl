/* libclwarp algorithms: batched rows of `len` consecutive elements.
 * The *_seg kernels give each row a segment of a warp (short rows of whole
 * vectors, below), the *_warp kernels give each warp one row (other short
 * rows), the *_group kernels give each work-group one row. Defines beyond
 * common.cl's: ROWS_KIND 1 = reduce, 2 = scan (with INCLUSIVE), 3 = softmax
 * (float); SEG_STEPS, the steps of a *_seg work-group. */

/*
 * Segments (*_seg kernels), for len % VEC == 0 and len / VEC <= W: a row is
 * `seg` consecutive lanes, seg = the smallest power of two >= len / VEC (a
 * kernel argument; it divides W), and lane k of a segment loads vector k of
 * its row. A warp so holds W / seg rows and a work-group WG / seg, a step;
 * a work-group takes SEG_STEPS steps of consecutive rows, every load first
 * (the addresses of a step are consecutive 16-byte vectors). Lanes combine
 * with warp_shuffle_xor / warp_shuffle_up for masks and distances below
 * seg, which stay inside an aligned segment. Lanes past a row's end or
 * past the last row load nothing (a lane reads only the vector it may
 * write, so out = in is race-free) and hold the identity. The warp calls
 * sit in loops bounded by seg, a kernel argument, so the whole work-group
 * makes the same calls (as the local backend needs). They run to seg, not
 * to W with a test of seg: unrolled, the latter inlines a local-backend
 * shuffle per mask and step, and a cold run of tests/test-algorithms on
 * PoCL 3.1 took twice as long (370 s against 198 s).
 */
#define SEG_ROWS (WG / seg)

/* This work-item's lane in its segment, and for step u whether it holds
 * a vector (ok[u]) and which (vidx[u]). Positions count in warp order,
 * as the shuffles do (ALGO_WARP, ALGO_LANE: see common.cl). */
#define SEG_PROLOGUE \
	uint lane = ALGO_LANE(), k = lane & (seg - 1u), nvec = len / VEC; \
	ulong row0 = (ulong)get_group_id(0) * (SEG_STEPS * SEG_ROWS) + \
		     (ALGO_WARP() * CLWARP_WARP_SIZE + lane) / seg; \
	ulong vidx[SEG_STEPS]; \
	bool ok[SEG_STEPS]; \
	for (uint u = 0; u < SEG_STEPS; u++) { \
		ulong row = row0 + u * SEG_ROWS; \
		ok[u] = row < rows && k < nvec; \
		vidx[u] = row * nvec + k; \
	}

/* e[u][0 .. VEC-1] = step u's vector, or the padding value PAD. Scalars,
 * not a vector splat: Oclgrind takes a splat's undefined lanes for data. */
#define SEG_LOAD(e, PAD) \
	for (uint u = 0; u < SEG_STEPS; u++) { \
		if (ok[u]) { \
			T_VEC x_ = in[vidx[u]]; \
			VEC_SPLIT(e[u], x_); \
		} else { \
			for (uint c = 0; c < VEC; c++) \
				e[u][c] = (PAD); \
		} \
	}

/* v[u] = OPF over the segment of v[u], on every lane of the segment. */
#define DEFINE_SEG_REDUCE(NAME, TY, OPF) \
	CLWARP_INLINE void NAME(TY *v, uint seg, CLWARP_WARP_PARAM) \
	{ \
		for (uint m = CLWARP_SEGMENT_STEPS(seg) / 2; m > 0; m /= 2) \
			for (uint u = 0; u < SEG_STEPS; u++) { \
				TY t = warp_shuffle_xor(v[u], m); \
				v[u] = m < seg ? OPF(v[u], t) : v[u]; \
			} \
	}

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

DEFINE_SEG_REDUCE(seg_reduce, T, OP)

__kernel void clwarp_rows_reduce_seg(global const T_VEC *in, global T *out, ulong rows, uint len,
				     uint seg)
{
	SEG_PROLOGUE
	T e[SEG_STEPS][VEC], v[SEG_STEPS];
	SEG_LOAD(e, ID)
	for (uint u = 0; u < SEG_STEPS; u++) {
		v[u] = e[u][0];
		for (uint c = 1; c < VEC; c++)
			v[u] = OP(v[u], e[u][c]);
	}
	seg_reduce(v, seg, CLWARP_WARP_ARG);
	for (uint u = 0; u < SEG_STEPS; u++)
		if (ok[u] && k == 0)
			out[row0 + u * SEG_ROWS] = v[u];
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

/* Each lane scans its vector serially; the segment scans the lanes' totals
 * (Kogge-Stone over warp_shuffle_up), then one more shuffle up gives each
 * lane the total of the lanes before it in its segment. */
__kernel void clwarp_rows_scan_seg(global const T_VEC *in, global T_VEC *out, ulong rows, uint len,
				   uint seg)
{
	SEG_PROLOGUE
	T e[SEG_STEPS][VEC], s[SEG_STEPS];
	SEG_LOAD(e, ID)
	for (uint u = 0; u < SEG_STEPS; u++) {
		s[u] = e[u][0];
		for (uint c = 1; c < VEC; c++)
			s[u] = OP(s[u], e[u][c]);
	}
	/* No warp call under a run-time bound or condition (CLWARP_SEGMENT_STEPS):
	 * PoCL 6.0 miscompiled this loop on local at W = 8, dropping its last
	 * step in some builds. */
	for (uint d = 1; d < CLWARP_SEGMENT_STEPS(seg); d *= 2)
		for (uint u = 0; u < SEG_STEPS; u++) {
			T t = warp_shuffle_up(s[u], d);
			s[u] = d < seg && k >= d ? OP(t, s[u]) : s[u];
		}
	for (uint u = 0; u < SEG_STEPS; u++) {
		T run = ID, r[VEC];
		T t = warp_shuffle_up(s[u], 1u);
		run = seg > 1 && k > 0 ? t : run;
		for (uint c = 0; c < VEC; c++) {
			T nx = OP(run, e[u][c]);
			r[c] = INCLUSIVE ? nx : run;
			run = nx;
		}
		if (ok[u])
			out[vidx[u]] = VEC_JOIN(r);
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

DEFINE_SEG_REDUCE(seg_max, float, fmax)
DEFINE_SEG_REDUCE(seg_sum, float, FADD)

/* The row stays in registers: segment maximum, exp(x - max) once per
 * element, segment sum, one write. */
__kernel void clwarp_softmax_seg(global const float4 *in, global float4 *out, ulong rows, uint len,
				 uint seg)
{
	SEG_PROLOGUE
	float e[SEG_STEPS][4], m[SEG_STEPS], s[SEG_STEPS];
	SEG_LOAD(e, -INFINITY)
	for (uint u = 0; u < SEG_STEPS; u++)
		m[u] = fmax(fmax(e[u][0], e[u][1]), fmax(e[u][2], e[u][3]));
	seg_max(m, seg, CLWARP_WARP_ARG);
	for (uint u = 0; u < SEG_STEPS; u++) {
		s[u] = 0.0f;
		for (uint c = 0; c < 4; c++) {
			e[u][c] = ok[u] ? exp(e[u][c] - m[u]) : 0.0f;
			s[u] += e[u][c];
		}
	}
	seg_sum(s, seg, CLWARP_WARP_ARG);
	for (uint u = 0; u < SEG_STEPS; u++) {
		float r[4];
		for (uint c = 0; c < 4; c++)
			r[c] = e[u][c] / s[u];
		if (ok[u])
			out[vidx[u]] = VEC_JOIN(r);
	}
}
#endif
