// What the CUDA benchmarks (cub-bench.cu, select-port.cu) share: errors, the input data, option lists, the selection predicates.
// SPDX-License-Identifier: MIT
#ifndef CLWARP_BENCH_CUDA_CUH
#define CLWARP_BENCH_CUDA_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace bench {

// Set by main: the prefix of every message.
inline const char *prog = "bench";

[[noreturn]] inline void die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

#define CUDA_CHECK(call)                                                                    \
	do {                                                                                    \
		cudaError_t err_ = (call);                                                          \
		if (err_ != cudaSuccess)                                                            \
			bench::die("%s:%d: %s: %s", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
	} while (0)

// xorshift64*: the same stream as algorithms-bench.c.
constexpr uint64_t kSeed = 0x2545F4914F6CDD1Dull;

inline uint64_t rng_next(uint64_t &s)
{
	s ^= s >> 12;
	s ^= s << 25;
	s ^= s >> 27;
	return s * 0x2545F4914F6CDD1Dull;
}

// The benchmark data: k uniform in [-256, 255] as floats k/256 and (if wanted) ints k.
inline void make_input(size_t n, std::vector<float> &f, std::vector<int32_t> *i)
{
	uint64_t s = kSeed;
	f.resize(n);
	if (i)
		i->resize(n);
	for (size_t j = 0; j < n; j++) {
		int32_t k = (int32_t)(rng_next(s) >> 55) - 256;
		if (i)
			(*i)[j] = k;
		f[j] = (float)k / 256.0f;
	}
}

inline bool in_list(const std::string &list, const std::string &name)
{
	size_t p = 0;
	while (p <= list.size()) {
		size_t e = list.find(',', p);
		if (e == std::string::npos)
			e = list.size();
		if (list.compare(p, e - p, name) == 0)
			return true;
		p = e + 1;
	}
	return false;
}

inline double median(std::vector<double> t)
{
	size_t m = t.size();
	std::sort(t.begin(), t.end());
	return m % 2 ? t[m / 2] : 0.5 * (t[m / 2 - 1] + t[m / 2]);
}

// The selection predicates, with the OpenCL C text algorithms-bench.c gives
// clwarp_compact/clwarp_partition. On the data above x > 0 keeps k >= 1,
// 255 of 512 values (49.8 %); x > 0.9f keeps k >= 231, 25 of 512 (4.9 %).
// Constants in the type, as the predicate text is in the OpenCL program.
struct GtZero {
	static constexpr const char *expr = "x > 0";
	static constexpr const char *name = "gt0";
	__host__ __device__ bool operator()(float x) const { return x > 0.0f; }
};

struct GtPoint9 {
	static constexpr const char *expr = "x > 0.9f";
	static constexpr const char *name = "gt0.9";
	__host__ __device__ bool operator()(float x) const { return x > 0.9f; }
};

// Calls f(GtZero{}) for which == 0, f(GtPoint9{}) for which == 1.
template <typename F> auto with_pred(int which, F &&f)
{
	return which == 0 ? f(GtZero{}) : f(GtPoint9{});
}

} // namespace bench

#endif
