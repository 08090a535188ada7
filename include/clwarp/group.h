/* libclwarp device groups: several OpenCL devices, local or remote (PoCL-R), used as one. */
/* SPDX-License-Identifier: MIT */
/** @file */
#ifndef CLWARP_GROUP_H
#define CLWARP_GROUP_H

#include "clwarp/algorithms.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A group holds one engine per device. Each engine keeps its own context,
 * queue, verified warp backend and width; all of them share one disk cache
 * folder. Work is split into contiguous slices, one per device, described
 * by an array of count + 1 offsets: device i owns elements (or rows)
 * [offsets[i], offsets[i + 1]). clwarp_group_split() makes such an array
 * from the group's weights; any other non-decreasing array starting at 0
 * works too.
 *
 * Every call that fails on one device returns an error whose message names
 * that device ("device 1 (0:1 NAME): ..."); the other devices' work is
 * waited for, and every engine stays usable. A group, like one kernel
 * object, is used by one thread at a time, and so are its programs and
 * kernels; different groups may be used from different threads at once
 * (docs/thread-safety.md).
 */
typedef struct clwarp_group clwarp_group;
typedef struct clwarp_group_program clwarp_group_program;
typedef struct clwarp_group_kernel clwarp_group_kernel;

/** Most devices in one group. */
#define CLWARP_GROUP_MAX_DEVICES 64

/**
 * Create a group. @p devices is a comma-separated list of items, each
 * naming one or more devices: "P:D" (one device), "P:*" (every device of
 * platform P), "gpu", "cpu" or "accelerator" (every device of that type),
 * "all" (every device), or any other text (every device whose device or
 * platform name contains it, ignoring case). NULL or "": CLWARP_DEVICES
 * from the environment (unless @p options has CLWARP_ENGINE_NO_ENVIRONMENT),
 * else every GPU, else every device. A device named twice, an item that
 * matches nothing, or more than CLWARP_GROUP_MAX_DEVICES devices is an
 * error that names the item.
 *
 * @p options apply to every engine (backend, width, cache folder, log);
 * options->device must be NULL. Every device's backend is resolved (probed
 * or read from the cache) before this returns, one thread per device.
 */
CLWARP_EXPORT clwarp_status clwarp_group_new(const char *devices,
                                             const clwarp_engine_options *options,
                                             clwarp_group **group);

/** Free the group, its programs and kernels, and its engines. NULL is fine. */
CLWARP_EXPORT void clwarp_group_free(clwarp_group *group);

/** @return the number of devices (at least 1). */
CLWARP_EXPORT size_t clwarp_group_size(const clwarp_group *group);

/** @return device @p index's engine (owned by the group), NULL if out of range. */
CLWARP_EXPORT clwarp_engine *clwarp_group_engine(const clwarp_group *group, size_t index);

/**
 * Relative speeds, one positive finite number per device, that
 * clwarp_group_split() divides work by. Default: all 1.
 */
CLWARP_EXPORT clwarp_status clwarp_group_set_weights(clwarp_group *group, const double *weights);

/**
 * Measure each device's speed (a device-wide sum of @p n floats, a
 * bandwidth-bound kernel, best of three runs) and set the weights from it.
 * @p n 0 means 2^22. @p weights (may be NULL) receives the weights.
 */
CLWARP_EXPORT clwarp_status clwarp_group_measure_weights(clwarp_group *group, size_t n,
                                                         double *weights);

/**
 * A time limit on every wait of the group's calls, in seconds (0: none,
 * the default; CLWARP_GROUP_TIMEOUT in the environment sets the default
 * unless the group's options have CLWARP_ENGINE_NO_ENVIRONMENT). A device
 * whose work does not finish in time gives CLWARP_ERROR_TIMEOUT naming it;
 * its engine is then in an unknown state and should not be used again,
 * while the other devices' engines stay usable. OpenCL has no way to
 * cancel a command, so this is how a device that is gone (a PoCL-R server
 * that died: its client retries the connection forever) surfaces as an
 * error instead of a hang.
 */
CLWARP_EXPORT clwarp_status clwarp_group_set_timeout(clwarp_group *group, double seconds);

/**
 * Split @p n items into clwarp_group_size() contiguous slices in
 * proportion to the weights. Every boundary but the last (n) is a multiple
 * of @p granule (> 0), so a slice of a launch whose local size divides the
 * granule is a whole number of work-groups.
 * @param[out] offsets clwarp_group_size() + 1 entries
 */
CLWARP_EXPORT clwarp_status clwarp_group_split(const clwarp_group *group, size_t n,
                                               size_t granule, size_t *offsets);

/* ------------------------------------------------------------ data */

/**
 * Copy each device's slice of @p host (elements of @p element_size bytes)
 * into a new buffer on that device. @p buffers receives one buffer per
 * device, which the caller releases (clwarp_group_buffers_free()); an
 * empty slice gets a buffer of one element. The copies run on every device
 * at once.
 */
CLWARP_EXPORT clwarp_status clwarp_group_scatter(clwarp_group *group, const void *host,
                                                 cl_mem *buffers, const size_t *offsets,
                                                 size_t element_size);

/** Read each device's slice back into its place in @p host, all devices at once. */
CLWARP_EXPORT clwarp_status clwarp_group_gather(clwarp_group *group, const cl_mem *buffers,
                                                void *host, const size_t *offsets,
                                                size_t element_size);

/** New buffers of @p bytes_per_device[i] bytes (at least 1) on each device. */
CLWARP_EXPORT clwarp_status clwarp_group_buffers_new(clwarp_group *group, cl_mem_flags flags,
                                                     const size_t *bytes_per_device,
                                                     cl_mem *buffers);

/** Release one buffer per device and set the entries to NULL; NULL entries are skipped. */
CLWARP_EXPORT void clwarp_group_buffers_free(const clwarp_group *group, cl_mem *buffers);

/* ------------------------------------------------------------ programs and kernels */

/**
 * Build a file (or source text) for every device, one thread per device,
 * each with its own backend. The program belongs to the group. On failure
 * the message names the first device (by index) that failed.
 *
 * @p info (may be NULL; free its log with clwarp_build_info_free()) sums
 * up the devices' builds as one: @c source is CLWARP_BUILD_COMPILED if any
 * device compiled, else CLWARP_BUILD_DISK_HIT if any came from the disk
 * cache, else CLWARP_BUILD_MEMORY_HIT; @c milliseconds is the wall time of
 * the whole group build; @c log holds every device's non-empty log, each
 * after a line "device I (NAME):" naming it (NULL if every log is empty);
 * @c cl_error is the OpenCL error of the first device that failed
 * (CL_SUCCESS if none).
 */
CLWARP_EXPORT clwarp_status clwarp_group_program_build_file(clwarp_group *group, const char *path,
                                                            const char *options,
                                                            clwarp_group_program **program,
                                                            clwarp_build_info *info);
/** clwarp_group_program_build_file() for OpenCL C text; @p name as in clwarp_program_build_source(). */
CLWARP_EXPORT clwarp_status clwarp_group_program_build_source(clwarp_group *group,
                                                              const char *source, const char *name,
                                                              const char *options,
                                                              clwarp_group_program **program,
                                                              clwarp_build_info *info);

/** @return device @p index's program, NULL if out of range. */
CLWARP_EXPORT clwarp_program *clwarp_group_program_device(const clwarp_group_program *program,
                                                          size_t index);

/** One kernel object per device; free with clwarp_group_kernel_free(). */
CLWARP_EXPORT clwarp_status clwarp_group_kernel_new(clwarp_group_program *program,
                                                    const char *name,
                                                    clwarp_group_kernel **kernel);
/** Free the kernel objects of every device; NULL is fine. */
CLWARP_EXPORT void clwarp_group_kernel_free(clwarp_group_kernel *kernel);

/** @return device @p index's kernel, to set arguments that differ per device. */
CLWARP_EXPORT clwarp_kernel *clwarp_group_kernel_device(const clwarp_group_kernel *kernel,
                                                        size_t index);

/** The same argument on every device. */
CLWARP_EXPORT clwarp_status clwarp_group_kernel_set_arg_scalar(clwarp_group_kernel *kernel,
                                                               unsigned index, size_t size,
                                                               const void *value);
/** The same local-memory argument of @p bytes on every device. */
CLWARP_EXPORT clwarp_status clwarp_group_kernel_set_arg_local(clwarp_group_kernel *kernel,
                                                              unsigned index, size_t bytes);
/** buffers[i] on device i. */
CLWARP_EXPORT clwarp_status clwarp_group_kernel_set_arg_buffers(clwarp_group_kernel *kernel,
                                                                unsigned index,
                                                                const cl_mem *buffers);

/**
 * Run a 1-D kernel over the range [0, offsets[count]) split by @p offsets:
 * device i runs offsets[i + 1] - offsets[i] work-items with the global
 * offset offsets[i], so get_global_id(0) is the position in the whole
 * range and get_global_id(0) - get_global_offset(0) the position in the
 * device's slice. Every slice must be a multiple of @p local (0: the driver
 * picks, for kernels that use no warp function); empty slices are skipped.
 * Waits for every device.
 */
CLWARP_EXPORT clwarp_status clwarp_group_launch(clwarp_group_kernel *kernel,
                                                const size_t *offsets, size_t local);

/* ------------------------------------------------------------ algorithms */

/*
 * The device-wide algorithms over data split across the group: `in[i]`
 * holds elements [offsets[i], offsets[i + 1]) of the whole array (from
 * element 0 of the buffer). Results equal the single-device calls' on the
 * whole array: bit for bit for integers; floats are combined in a
 * different order (docs/multidevice.md gives the bound). Each call waits
 * for every device.
 *
 * Where the size of a result depends on the data (compact, partition,
 * unique, run-length encode, reduce by key), device i writes its part to
 * the start of its own output buffers, which hold its slice's length, and
 * @p out_offsets (count + 1 entries, host memory) receives where the parts
 * sit in the whole result: device i's are elements
 * [out_offsets[i], out_offsets[i + 1]), and out_offsets[count] is the
 * result's length. clwarp_group_gather() with out_offsets puts the whole
 * result together.
 */

/** Reduce the whole array into @p result (one element of @p type, host memory). */
CLWARP_EXPORT clwarp_status clwarp_group_reduce(clwarp_group *group, clwarp_type type,
                                                const cl_mem *in, void *result,
                                                const size_t *offsets, clwarp_op op);

/**
 * Scan the whole array: out[i] (which may be in[i]) receives the slice's
 * part of the whole array's scan; @p flags: CLWARP_SCAN_INCLUSIVE or 0.
 * Each device's slice gets the carry of the slices before it: a reduce of
 * those slices runs first.
 */
CLWARP_EXPORT clwarp_status clwarp_group_scan(clwarp_group *group, clwarp_type type,
                                              const cl_mem *in, const cl_mem *out,
                                              const size_t *offsets, clwarp_op op,
                                              unsigned flags);

/**
 * Compact the whole array: device i writes its elements for which
 * @p predicate holds, in order, to the start of out[i] (which holds its
 * slice's length); @p out_offsets as above. Gathering out with out_offsets
 * gives what clwarp_compact gives on the whole array.
 */
CLWARP_EXPORT clwarp_status clwarp_group_compact(clwarp_group *group, clwarp_type type,
                                                 const cl_mem *in, const cl_mem *out,
                                                 size_t *out_offsets, const size_t *offsets,
                                                 const char *predicate);

/**
 * Stable partition of the whole array. out[i] (its slice's length) receives
 * device i's selected elements, in order, then its rejected ones: in order,
 * or reversed with CLWARP_PARTITION_REVERSED. @p out_offsets places the
 * selected parts as for clwarp_group_compact (out_offsets[count] selected
 * in all). With R_i = offsets[i] - out_offsets[i], the rejected elements of
 * the slices before i, device i's rejected part is elements
 * [out_offsets[count] + R_i, out_offsets[count] + R_(i+1)) of the whole
 * clwarp_partition result, or, reversed, [n - R_(i+1), n - R_i) of the
 * reversed one (n = offsets[count]).
 */
CLWARP_EXPORT clwarp_status clwarp_group_partition(clwarp_group *group, clwarp_type type,
                                                   const cl_mem *in, const cl_mem *out,
                                                   size_t *out_offsets, const size_t *offsets,
                                                   const char *predicate, unsigned flags);

/**
 * Unique over the whole array, as clwarp_unique: the first element of each
 * run of equal elements, a run that crosses slices counted once (on the
 * device where it starts). out[i] holds its slice's length. Where a run
 * crosses into slice i, device i computes into a temporary buffer and
 * copies the part after that run into out[i].
 */
CLWARP_EXPORT clwarp_status clwarp_group_unique(clwarp_group *group, clwarp_type type,
                                                const cl_mem *in, const cl_mem *out,
                                                size_t *out_offsets, const size_t *offsets);

/**
 * Run-length encode the whole array, as clwarp_run_length_encode: a run
 * that crosses slices is one run, on the device where it starts, its count
 * the whole run's. unique_out[i] and counts_out[i] (cl_uint) hold the
 * slice's length; out_offsets places both. offsets[count] < 2^32.
 */
CLWARP_EXPORT clwarp_status clwarp_group_run_length_encode(clwarp_group *group, clwarp_type type,
                                                           const cl_mem *in,
                                                           const cl_mem *unique_out,
                                                           const cl_mem *counts_out,
                                                           size_t *out_offsets,
                                                           const size_t *offsets);

/**
 * Reduce by key over the whole array, as clwarp_reduce_by_key: a run of
 * equal keys that crosses slices is one run, on the device where it
 * starts, its aggregate combining the whole run's values (the parts from
 * each device combined on the host in device order). Outputs hold the
 * slice's length; out_offsets places both.
 */
CLWARP_EXPORT clwarp_status clwarp_group_reduce_by_key(clwarp_group *group, clwarp_type key_type,
                                                       clwarp_type value_type,
                                                       const cl_mem *keys_in,
                                                       const cl_mem *values_in,
                                                       const cl_mem *unique_keys_out,
                                                       const cl_mem *aggregates_out,
                                                       size_t *out_offsets,
                                                       const size_t *offsets, clwarp_op op);

/**
 * Histogram of the whole array, as clwarp_histogram (@p bins, @p lower,
 * @p upper the same), into @p counts: @p bins cl_uints in host memory,
 * every device's counts summed. Each device counts its slice into a
 * temporary buffer of its own; the sums cross devices through the host.
 */
CLWARP_EXPORT clwarp_status clwarp_group_histogram(clwarp_group *group, clwarp_type type,
                                                   const cl_mem *in, cl_uint *counts,
                                                   const size_t *offsets, size_t bins,
                                                   const void *lower, const void *upper);

/**
 * Rows split across the group: device i holds rows
 * [row_offsets[i], row_offsets[i + 1]) of @p row_length elements in in[i],
 * and writes their results to out[i] (one per row, or a row each).
 */
CLWARP_EXPORT clwarp_status clwarp_group_segmented_reduce(clwarp_group *group, clwarp_type type,
                                                          const cl_mem *in, const cl_mem *out,
                                                          const size_t *row_offsets,
                                                          size_t row_length, clwarp_op op);
/** Segmented scan of the rows split across the group, as clwarp_segmented_scan(); flags as clwarp_group_scan(). */
CLWARP_EXPORT clwarp_status clwarp_group_segmented_scan(clwarp_group *group, clwarp_type type,
                                                        const cl_mem *in, const cl_mem *out,
                                                        const size_t *row_offsets,
                                                        size_t row_length, clwarp_op op,
                                                        unsigned flags);
/** Row softmax of the float rows split across the group, as clwarp_softmax_rows(). */
CLWARP_EXPORT clwarp_status clwarp_group_softmax_rows(clwarp_group *group, const cl_mem *in,
                                                      const cl_mem *out,
                                                      const size_t *row_offsets,
                                                      size_t row_length);

/**
 * Stable sort of the whole array (flags as clwarp_sort_keys: direction, bit
 * range). The result is split anew: device i's part of the sorted array is
 * out_keys[i], a new buffer the caller releases, holding elements
 * [out_offsets[i], out_offsets[i + 1]) of the whole result; the parts'
 * sizes follow the group's weights up to sampling (all keys equal: one
 * device gets them all). Gathering out_keys with out_offsets gives what
 * clwarp_sort_keys gives on the whole array. The input slices are left
 * sorted each on its own (the first step sorts them in place). Keys that
 * change devices pass through host memory.
 */
CLWARP_EXPORT clwarp_status clwarp_group_sort_keys(clwarp_group *group, clwarp_type type,
                                                   const cl_mem *keys, cl_mem *out_keys,
                                                   size_t *out_offsets, const size_t *offsets,
                                                   unsigned flags);

/** clwarp_group_sort_keys moving values (of @p value_type) with their keys. */
CLWARP_EXPORT clwarp_status clwarp_group_sort_pairs(clwarp_group *group, clwarp_type key_type,
                                                    clwarp_type value_type, const cl_mem *keys,
                                                    const cl_mem *values, cl_mem *out_keys,
                                                    cl_mem *out_values, size_t *out_offsets,
                                                    const size_t *offsets, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* CLWARP_GROUP_H */
