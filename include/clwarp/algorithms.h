/* libclwarp device-wide algorithms: reduce, scan, compaction, runs, histograms,
 * sort and per-row work on the warp layer. */
/* SPDX-License-Identifier: MIT */
/** @file */
#ifndef CLWARP_ALGORITHMS_H
#define CLWARP_ALGORITHMS_H

#include "clwarp/clwarp.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Every call here works on device buffers of any length n >= 0, builds its
 * kernels (kernels/algorithms/) through the engine, so they are cached and
 * use the engine's warp backend like user kernels, and is safe to call from
 * several threads on one engine.
 *
 * Each call enqueues its work on the engine's queue. With @p event NULL it
 * waits for the result; otherwise it returns at once with an event for the
 * last command, which the caller releases. Temporary device memory is owned
 * by the engine and reused between calls.
 *
 * Accuracy: integer results are exact (with the wrap-around of the type on
 * overflow). Float and double sums are computed in the element type, in a
 * tree order; docs/algorithms.md gives the error bounds that the tests
 * check against a double-precision (long double for double) host sum.
 */

/**
 * Element types. The 1- and 2-byte integer types (OpenCL C's char, uchar,
 * short and ushort: cl_char is signed) work with clwarp_sort_keys and
 * clwarp_sort_pairs (keys and values), clwarp_histogram, clwarp_compact,
 * clwarp_partition, clwarp_unique, clwarp_run_length_encode and
 * clwarp_reduce_by_key (keys and values), and the device groups' sorts and
 * compaction; clwarp_reduce, clwarp_scan, clwarp_segmented_reduce,
 * clwarp_segmented_scan and their group versions refuse them with
 * CLWARP_ERROR_INVALID_ARGUMENT (docs/algorithms.md, "Types").
 */
typedef enum clwarp_type {
	CLWARP_TYPE_INT = 0,
	CLWARP_TYPE_UINT,
	CLWARP_TYPE_LONG,
	CLWARP_TYPE_ULONG,
	CLWARP_TYPE_FLOAT,
	CLWARP_TYPE_DOUBLE,   /**< only where the device has cl_khr_fp64 */
	CLWARP_TYPE_CHAR,     /**< 1 byte, signed (cl_char) */
	CLWARP_TYPE_UCHAR,    /**< 1 byte (cl_uchar) */
	CLWARP_TYPE_SHORT,    /**< 2 bytes, signed (cl_short) */
	CLWARP_TYPE_USHORT,   /**< 2 bytes (cl_ushort) */
} clwarp_type;

/** Combining operations; min and max of floats follow fmin/fmax (NaN is ignored). */
typedef enum clwarp_op {
	CLWARP_OP_ADD = 0,
	CLWARP_OP_MIN,
	CLWARP_OP_MAX,
} clwarp_op;

/** @return the size of one element of @p type in bytes, 0 for an unknown type. */
CLWARP_EXPORT size_t clwarp_type_size(clwarp_type type);

/**
 * Reduce @p n elements of @p in with @p op into element 0 of @p result.
 * For n == 0 the result is the identity (0, the type's largest value for
 * min, its smallest for max; +/-INFINITY for floats).
 *
 * @code
 * // in = {3, 1, 4, 1, 5}
 * clwarp_reduce(engine, CLWARP_TYPE_INT, in, result, 5, CLWARP_OP_ADD, NULL);
 * // result = {14}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_reduce(clwarp_engine *engine, clwarp_type type, cl_mem in,
                                          cl_mem result, size_t n, clwarp_op op, cl_event *event);

/** clwarp_scan and clwarp_segmented_scan flag: an inclusive scan (0: exclusive). */
#define CLWARP_SCAN_INCLUSIVE 0x1u

/**
 * Scan @p n elements of @p in into @p out (which may be @p in). With
 * CLWARP_SCAN_INCLUSIVE in @p flags: out[i] = in[0] op ... op in[i];
 * without (flags 0, exclusive): out[0] = identity,
 * out[i] = in[0] op ... op in[i-1]. Other flag bits give
 * CLWARP_ERROR_INVALID_ARGUMENT.
 *
 * @code
 * // in = {3, 1, 4, 1, 5}
 * clwarp_scan(engine, CLWARP_TYPE_INT, in, out, 5, CLWARP_OP_ADD, CLWARP_SCAN_INCLUSIVE, NULL);
 * // out = {3, 4, 8, 9, 14}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_scan(clwarp_engine *engine, clwarp_type type, cl_mem in,
                                        cl_mem out, size_t n, clwarp_op op, unsigned flags,
                                        cl_event *event);

/**
 * Stream compaction: copy the elements x of @p in for which the OpenCL C
 * expression @p predicate (in terms of `x`, e.g. "x > 0" or
 * "fabs(x) < 0.5f") is true to the start of @p out, keeping their order,
 * and write their count as a cl_uint (n < 2^32) into element 0 of @p count.
 * @p out must hold n elements. The predicate is compiled into the kernel,
 * so each distinct predicate is one cached build.
 *
 * @code
 * // in = {3, -1, 4, -2, 5, -9}
 * clwarp_compact(engine, CLWARP_TYPE_INT, in, out, count, 6, "x > 0", NULL);
 * // out = {3, 4, 5}
 * // count = {3}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_compact(clwarp_engine *engine, clwarp_type type, cl_mem in,
                                           cl_mem out, cl_mem count, size_t n,
                                           const char *predicate, cl_event *event);

/**
 * clwarp_partition flag: the rejected elements in reverse order, as CUB's
 * DevicePartition::If leaves them: the first rejected element at
 * out[n - 1], the second at out[n - 2], and so on. It skips the second
 * pass that puts them back in order (which reads and writes the rejected
 * part once more), so it is the faster where that order will do.
 */
#define CLWARP_PARTITION_REVERSED 0x1u

/**
 * Stable partition: like clwarp_compact, and the rejected elements follow
 * the selected ones in @p out, also in their original order (in reverse
 * order with CLWARP_PARTITION_REVERSED in @p flags). Other flag bits give
 * CLWARP_ERROR_INVALID_ARGUMENT.
 *
 * @code
 * // in = {3, -1, 4, -2, 5, -9}
 * clwarp_partition(engine, CLWARP_TYPE_INT, in, out, count, 6, "x > 0", 0, NULL);
 * // out = {3, 4, 5, -1, -2, -9}
 * // count = {3}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_partition(clwarp_engine *engine, clwarp_type type, cl_mem in,
                                             cl_mem out, cl_mem count, size_t n,
                                             const char *predicate, unsigned flags,
                                             cl_event *event);

/**
 * Unique: copy the first element of each run of consecutive equal
 * elements of @p in to the start of @p out, in order (CUB's
 * DeviceSelect::Unique), and write their count as a cl_uint into element 0
 * of @p num_selected. Elements compare with ==: floats by IEEE equality
 * (-0.0 equals +0.0, a NaN equals nothing, so each NaN is kept). @p out
 * must hold n elements; n < 2^32.
 *
 * @code
 * // in = {1, 1, 2, 2, 2, 3, 1}
 * clwarp_unique(engine, CLWARP_TYPE_INT, in, out, num_selected, 7, NULL);
 * // out = {1, 2, 3, 1}
 * // num_selected = {4}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_unique(clwarp_engine *engine, clwarp_type type, cl_mem in,
                                          cl_mem out, cl_mem num_selected, size_t n,
                                          cl_event *event);

/**
 * Run-length encode (CUB's DeviceRunLengthEncode::Encode): for each run r
 * of consecutive equal elements of @p in (compared as clwarp_unique does),
 * unique_out[r] = its first element and counts_out[r] = its length (a
 * cl_uint); the number of runs goes as a cl_uint into element 0 of
 * @p num_runs. @p unique_out and @p counts_out must hold n elements;
 * n < 2^32.
 *
 * @code
 * // in = {1, 1, 2, 2, 2, 3, 1}
 * clwarp_run_length_encode(engine, CLWARP_TYPE_INT, in, unique_out, counts_out, num_runs, 7,
 *                          NULL);
 * // unique_out = {1, 2, 3, 1}
 * // counts_out = {2, 3, 1, 1}
 * // num_runs = {4}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_run_length_encode(clwarp_engine *engine, clwarp_type type,
                                                     cl_mem in, cl_mem unique_out,
                                                     cl_mem counts_out, cl_mem num_runs, size_t n,
                                                     cl_event *event);

/**
 * Reduce by key (CUB's DeviceReduce::ReduceByKey): for each run r of
 * consecutive equal keys of @p keys_in (compared as clwarp_unique does),
 * unique_keys_out[r] = its first key and aggregates_out[r] = its values
 * (@p values_in, n elements of @p value_type) combined with @p op, in
 * order; the number of runs goes as a cl_uint into element 0 of
 * @p num_runs. Both outputs must hold n elements; n < 2^32. Integer sums
 * wrap like the value type: 1- and 2-byte values are added in uchar or
 * ushort, so a sum is the exact sum modulo 2^8 or 2^16, read as two's
 * complement for char and short (char 100 + 100 = -56).
 *
 * @code
 * // keys_in = {1, 1, 2, 2, 2, 3, 1}
 * // values_in = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f}
 * clwarp_reduce_by_key(engine, CLWARP_TYPE_INT, CLWARP_TYPE_FLOAT, keys_in, values_in,
 *                      unique_keys_out, aggregates_out, num_runs, 7, CLWARP_OP_ADD, NULL);
 * // unique_keys_out = {1, 2, 3, 1}
 * // aggregates_out = {3.0f, 12.0f, 6.0f, 7.0f}
 * // num_runs = {4}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_reduce_by_key(clwarp_engine *engine, clwarp_type key_type,
                                                 clwarp_type value_type, cl_mem keys_in,
                                                 cl_mem values_in, cl_mem unique_keys_out,
                                                 cl_mem aggregates_out, cl_mem num_runs, size_t n,
                                                 clwarp_op op, cl_event *event);

/**
 * Histogram with @p bins even bins over [*lower, *upper) (CUB's
 * DeviceHistogram::HistogramEven): counts[b] (a cl_uint) = the number of
 * the n samples of @p in in bin b. For int, uint, long, ulong, float and
 * double samples @p lower and @p upper point at one element of @p type
 * each (exact for every type), so the type's largest value is never
 * counted; for char, uchar, short and ushort samples they point at one
 * cl_int each, and the samples compare as ints: any int bounds with
 * lower < upper, e.g. [0, 256) for every uchar value (CUB's pixel
 * histogram with int levels), [-1000, 1000), or bounds outside the
 * type's values (nothing counted). lower < upper (compared in the sample
 * type, as ints for the 1- and 2-byte types), and for floats both finite
 * with a finite difference. Integer samples go to bin
 * floor((x - lower) * bins / (upper - lower)), exactly; float samples to
 * (x - lower) * (bins / (upper - lower)), truncated, as CUB computes it
 * (docs/algorithms.md). Samples outside [lower, upper), NaNs among them,
 * are not counted. @p counts must hold bins cl_uints and is overwritten;
 * n < 2^32.
 *
 * @code
 * // in = {0, 2, 2, 5, 7, 9, 9, 9, 10}
 * cl_int lower = 0, upper = 10;
 * clwarp_histogram(engine, CLWARP_TYPE_INT, in, counts, 9, 5, &lower, &upper, NULL);
 * // counts = {1, 2, 1, 1, 3}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_histogram(clwarp_engine *engine, clwarp_type type, cl_mem in,
                                             cl_mem counts, size_t n, size_t bins,
                                             const void *lower, const void *upper,
                                             cl_event *event);

/**
 * Batched rows: @p rows rows of @p row_length consecutive elements each.
 * Segmented reduce writes one result per row to @p out; segmented scan
 * writes the per-row scan to @p out (rows * row_length elements).
 *
 * @code
 * // in = {1, 2, 3, 4, 5, 6}
 * clwarp_segmented_reduce(engine, CLWARP_TYPE_INT, in, out, 2, 3, CLWARP_OP_ADD, NULL);
 * // out = {6, 15}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_segmented_reduce(clwarp_engine *engine, clwarp_type type,
                                                    cl_mem in, cl_mem out, size_t rows,
                                                    size_t row_length, clwarp_op op,
                                                    cl_event *event);
/**
 * Segmented scan: each row of @p in scanned on its own into the same row
 * of @p out, inclusive with CLWARP_SCAN_INCLUSIVE in @p flags, else
 * exclusive, as clwarp_scan().
 *
 * @code
 * // in = {1, 2, 3, 4, 5, 6}
 * clwarp_segmented_scan(engine, CLWARP_TYPE_INT, in, out, 2, 3, CLWARP_OP_ADD, 0, NULL);
 * // out = {0, 1, 3, 0, 4, 9}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_segmented_scan(clwarp_engine *engine, clwarp_type type,
                                                  cl_mem in, cl_mem out, size_t rows,
                                                  size_t row_length, clwarp_op op, unsigned flags,
                                                  cl_event *event);

/**
 * Row-wise softmax of float rows: out[r][j] = exp(x[r][j] - max_r) / sum_r.
 * @p out may be @p in.
 *
 * @code
 * // in = {0.0f, 0.6931472f, 5.0f, 5.0f}
 * clwarp_softmax_rows(engine, in, out, 2, 2, NULL);
 * // out = {0.3333333f, 0.6666667f, 0.5f, 0.5f}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_softmax_rows(clwarp_engine *engine, cl_mem in, cl_mem out,
                                                size_t rows, size_t row_length, cl_event *event);

/** clwarp_sort_* flag: largest key first (equal keys still keep their order). */
#define CLWARP_SORT_DESCENDING 0x1u
/**
 * clwarp_sort_* flag: float and double keys in IEEE 754 totalOrder, as
 * CUB sorts them: NaNs by sign and payload, negative ones before -inf and
 * positive ones after +inf (descending: the reverse), instead of every NaN
 * last in input order; faster than the default on NVIDIA GPUs
 * (docs/design/sort-gpu.md, "Float and int keys").
 * Other keys sort the same either way.
 */
#define CLWARP_SORT_TOTAL_ORDER 0x4u
/**
 * clwarp_sort_* flag: sort on bits [begin, end) of the keys' order bits
 * only, like CUB's begin_bit/end_bit: fewer passes (one per 8 bits) for
 * keys known to be small; end is at most the key's width (8 for char and
 * uchar, 16 for short and ushort, ...). Order bits are the key itself for unsigned
 * types, the key with its sign bit flipped for signed ones, and the IEEE
 * total-order bits for floats (docs/algorithms.md).
 */
#define CLWARP_SORT_BITS(begin, end) \
	(0x2u | ((unsigned)(begin) & 0xffu) << 8 | ((unsigned)(end) & 0xffu) << 16)

/**
 * Stable radix sort of @p n keys of @p type (any clwarp_type) in place,
 * ascending unless @p flags has CLWARP_SORT_DESCENDING. Signed integers
 * (char, short, int, long) sort in two's complement order; floats in IEEE
 * total order (-0.0 before +0.0), with NaNs last in either direction
 * (in input order, bits kept), or every key in IEEE totalOrder with
 * CLWARP_SORT_TOTAL_ORDER.
 * One pass per 8 bits: 1 for 1-byte keys, 2 for 2-byte ones. n must be
 * below 2^32. The engine keeps a second buffer of n keys between calls.
 *
 * @code
 * // keys = {3, 1, 4, 1, 5, 9, 2, 6}
 * clwarp_sort_keys(engine, CLWARP_TYPE_INT, keys, 8, 0, NULL);
 * // keys = {1, 1, 2, 3, 4, 5, 6, 9}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_sort_keys(clwarp_engine *engine, clwarp_type type,
                                             cl_mem keys, size_t n, unsigned flags,
                                             cl_event *event);

/**
 * clwarp_sort_keys, moving @p values (n elements of @p value_type, any type:
 * values are moved as 1-, 2-, 4- or 8-byte bits) with their keys. Equal
 * keys keep their values' original order.
 *
 * @code
 * // keys = {3, 1, 4, 1, 5}
 * // values = {0, 1, 2, 3, 4}
 * clwarp_sort_pairs(engine, CLWARP_TYPE_INT, CLWARP_TYPE_UINT, keys, values, 5,
 *                   CLWARP_SORT_DESCENDING, NULL);
 * // keys = {5, 4, 3, 1, 1}
 * // values = {4, 2, 0, 1, 3}
 * @endcode
 */
CLWARP_EXPORT clwarp_status clwarp_sort_pairs(clwarp_engine *engine, clwarp_type key_type,
                                              clwarp_type value_type, cl_mem keys, cl_mem values,
                                              size_t n, unsigned flags, cl_event *event);

#ifdef __cplusplus
}
#endif

/* Device groups build on these types (and come with <clwarp/clwarp.h> too). */
#include "clwarp/group.h"

#endif /* CLWARP_ALGORITHMS_H */
