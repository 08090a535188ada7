// cub-bench's cases: each op, the CUB code that runs it ("cub" for
// cub::Device*, "cub-kernel" for bench/cub-rows.cuh) and what its GB/s count.
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

enum Kind { REDUCE, SCAN, COMPACT, PARTITION, SEGREDUCE, WARPROWS, SOFTMAX, SEGSCAN, ROWSCAN };

struct Case {
	const char *group, *backend, *op, *type;
	Kind kind;
	int combine;   // 0 add, 1 min, 2 max; COMPACT, PARTITION: the predicate, bench::with_pred's
	int inclusive;
	size_t row;
	const char *bytes;
};

const Case kCases[] = {
	{"reduce", "cub", "reduce_add", "float", REDUCE, 0, 0, 0, "n*4 read"},
	{"reduce", "cub", "reduce_add", "int", REDUCE, 0, 0, 0, "n*4 read"},
	{"minmax", "cub", "reduce_min", "float", REDUCE, 1, 0, 0, "n*4 read"},
	{"minmax", "cub", "reduce_max", "float", REDUCE, 2, 0, 0, "n*4 read"},
	{"scan", "cub", "scan_inclusive_add", "float", SCAN, 0, 1, 0, "2n*4 read+write"},
	{"scan", "cub", "scan_inclusive_add", "int", SCAN, 0, 1, 0, "2n*4 read+write"},
	{"exscan", "cub", "scan_exclusive_add", "float", SCAN, 0, 0, 0, "2n*4 read+write"},
	{"exscan", "cub", "scan_exclusive_add", "int", SCAN, 0, 0, 0, "2n*4 read+write"},
	{"compact", "cub", "compact_gt0", "float", COMPACT, 0, 0, 0,
	 "n*4 read + selected*4 written, predicate x > 0, ~50% selected"},
	{"compact_sparse", "cub", "compact_gt0.9", "float", COMPACT, 1, 0, 0,
	 "n*4 read + selected*4 written, predicate x > 0.9f, ~5% selected"},
	{"partition", "cub", "partition_gt0", "float", PARTITION, 0, 0, 0,
	 "2n*4 read+write, predicate x > 0, ~50% selected"},
	{"partition", "cub", "partition_gt0.9", "float", PARTITION, 1, 0, 0,
	 "2n*4 read+write, predicate x > 0.9f, ~5% selected"},
	{"segreduce", "cub", "segmented_reduce_add_r32", "float", SEGREDUCE, 0, 0, 32,
	 "n*4 read + rows*4 written; offsets not counted"},
	{"segreduce", "cub-kernel", "segmented_reduce_add_r32", "float", WARPROWS, 0, 0, 32,
	 "n*4 read + rows*4 written; cub::WarpReduce, one warp per row"},
	{"segreduce", "cub", "segmented_reduce_add_r64", "float", SEGREDUCE, 0, 0, 64,
	 "n*4 read + rows*4 written; offsets not counted"},
	{"segreduce", "cub-kernel", "segmented_reduce_add_r64", "float", WARPROWS, 0, 0, 64,
	 "n*4 read + rows*4 written; cub::WarpReduce, one warp per row, 2 loads a lane"},
	{"segreduce", "cub", "segmented_reduce_add_r128", "float", SEGREDUCE, 0, 0, 128,
	 "n*4 read + rows*4 written; offsets not counted"},
	{"segreduce", "cub-kernel", "segmented_reduce_add_r128", "float", WARPROWS, 0, 0, 128,
	 "n*4 read + rows*4 written; cub::WarpReduce, one warp per row, 4 loads a lane"},
	{"segreduce", "cub", "segmented_reduce_add_r256", "float", SEGREDUCE, 0, 0, 256,
	 "n*4 read + rows*4 written; offsets not counted"},
	{"segreduce", "cub", "segmented_reduce_add_r1024", "float", SEGREDUCE, 0, 0, 1024,
	 "n*4 read + rows*4 written; offsets not counted"},
	{"softmax", "cub-kernel", "softmax_r256", "float", SOFTMAX, 0, 0, 256,
	 "2n*4 read+write; cub::BlockReduce, one block per row"},
	// Last, so that whatever they do, every other op's rows are in the TSV.
	{"segscan", "cub", "segmented_scan_inclusive_add_r32", "float", SEGSCAN, 0, 1, 32,
	 "n*4 read + n*4 written; keys not counted"},
	{"segscan", "cub-kernel", "segmented_scan_inclusive_add_r32", "float", ROWSCAN, 0, 1, 32,
	 "n*4 read + n*4 written; cub::WarpScan, one warp per row"},
	{"segscan", "cub", "segmented_scan_inclusive_add_r256", "float", SEGSCAN, 0, 1, 256,
	 "n*4 read + n*4 written; keys not counted"},
	{"segscan", "cub-kernel", "segmented_scan_inclusive_add_r256", "float", ROWSCAN, 0, 1, 256,
	 "n*4 read + n*4 written; cub::BlockScan, one block per row"},
	{"segscan", "cub", "segmented_scan_inclusive_add_r1024", "float", SEGSCAN, 0, 1, 1024,
	 "n*4 read + n*4 written; keys not counted"},
	{"segscan", "cub-kernel", "segmented_scan_inclusive_add_r1024", "float", ROWSCAN, 0, 1, 1024,
	 "n*4 read + n*4 written; cub::BlockScan, one block per row, 4 items a thread"},
};
