/* Device-wide algorithms: what src/algorithms.c (argument checks, the
 * first public calls), src/algo_sort.c, src/algo_runs.c and
 * src/algo_histogram.c (more public calls), src/algo_variants.c
 * (per-engine state, temporaries, kernel builds), src/algo_kinds.c (what
 * differs by kind) and src/algo_call.c (one call's launches) share. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_ALGO_H
#define CLWARP_ALGO_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

/*
 * Tuning (defaults below; CLWARP_ALGO_TUNING overrides them for
 * benchmarks, see tuning_parse). Work-group sizes are cut down to what the
 * device allows. A scan tile is scan_wg work-items x scan_vectors vectors
 * of 16 bytes, a compaction tile select_wg x select_vectors; the
 * reduction runs reduce_groups work-groups of `wg` per compute unit, each
 * work-item taking at least REDUCE_MIN_ITEMS elements with reduce_unroll
 * vector loads in flight; rows of at most W whole vectors get a segment of
 * a warp each, ROWS_SEG_STEPS steps of rows per work-group (see
 * rows_call), other rows up to ROWS_WARP_MAX elements one warp each,
 * longer ones a work-group of `wg`.
 */
struct algo_tuning {
	unsigned wg;
	unsigned scan_wg;
	unsigned scan_vectors;
	unsigned select_wg;
	unsigned select_vectors;
	unsigned unique_vectors;   /* unique: vectors per work-item (0: the backend's, algo_state_get) */
	unsigned reduce_groups;
	unsigned reduce_unroll;
	unsigned packed_lookback;  /* 0: keep look-back state and value apart for every type */
	unsigned sort_items;       /* sort: keys per work-item, keys alone (0: 16; on nv 24 for 4-byte integers, 20 for floats) */
	unsigned runs_wg;          /* run-length encode, reduce by key: work-group size and */
	unsigned runs_vectors;     /* vectors per work-item (0: the backend's, algo_state_get) */
	unsigned histogram_bins;   /* histogram: bins counted in local memory at most */
	unsigned histogram_wg;     /* histogram: work-group size (0: wg), */
	unsigned histogram_vectors; /* 16-byte vectors per work-item and tile, */
	unsigned histogram_groups; /* work-groups per compute unit (0: reduce_groups) */
	/* nv, launches of at least 500 work-groups: the look-back warp sleeps
	 * *_wait ns before its first poll and *_poll ns after each poll that
	 * finds a tile not ready (0: it spins), for compaction, partition,
	 * runs, scan and unique (CUB's delays; common.cl, ALGO_NAP). */
	unsigned select_wait;
	unsigned select_poll;
	unsigned partition_wait;
	unsigned partition_poll;
	unsigned runs_wait;        /* the same for run-length encode and reduce by key, */
	unsigned runs_poll;
	unsigned scan_wait;        /* scan, */
	unsigned scan_poll;
	unsigned unique_wait;      /* and unique */
	unsigned unique_poll;
	unsigned sort_lookback;    /* sort passes: SORT_LOOKBACK_* */
	unsigned sort_pairs_items; /* sort_items for pairs of 4 bytes or less (0: 28 on nv, sort_items elsewhere) */
	unsigned sort_wide_items;  /* sort_items where keys or values take 8 bytes, halved (0: 32 on nv, sort_items elsewhere) */
	unsigned sort_wg;          /* sort, keys alone of 4 bytes or less: work-items per work-group
				      (0: wg, at most 256; algo_kinds.c, sort_width) */
	unsigned sort_regs;        /* nv, sort kernels: -cl-nv-maxrregcount (0: algo_tuning_regs's default) */
	unsigned sort_pairs_regs;  /* nv, pairs of 4 bytes or less: the same, under sort_regs (0: none) */
	unsigned sort_wide_pairs_regs; /* nv, pairs with 8-byte keys or values: the same (0: none) */
	unsigned select_regs;      /* nv, compaction and unique: the same (0: none) */
	unsigned runs_regs;        /* nv, run-length encode and reduce by key: the same (0: none) */
	unsigned histogram_regs;   /* nv, histogram: the same (0: none) */
	unsigned by_key_regs;      /* nv, reduce by key from by_key_regs_n elements: the same, */
	unsigned by_key_regs_n;    /* where it wins; below, runs_regs (0: never) */
	/* Small n in one launch of one work-group, no atomics, no look-back
	 * (reduce, scan, compact, partition, unique): up to small_n 4-byte
	 * elements (the same bytes of other types; 0: never) for reduce and
	 * scan, small_select_n for compact, partition and unique, work-groups
	 * of small_wg, small_vectors vectors per work-item (SMALL_AUTO: by
	 * device kind, algo_state_get). */
	unsigned small_n;
	unsigned small_select_n;
	unsigned small_wg;
	unsigned small_vectors;
};

#define SMALL_AUTO 0xffffffffu

/* How the sort's passes find where a tile's keys go (docs/algorithms.md,
 * "Sort"): looking back over the tiles before it (Onesweep), or from
 * counts scanned beforehand, so that no work-group waits for another; by
 * default the latter on CPU devices only. */
#define SORT_LOOKBACK_NEVER 0u
#define SORT_LOOKBACK_ALWAYS 1u
#define SORT_LOOKBACK_AUTO 2u

#define REDUCE_MIN_ITEMS 16u
#define ROWS_WARP_MAX 256u
#define ROWS_SEG_STEPS 4u
/* Kernels per variant at most (rows: per warp, per work-group, per segment;
 * histogram: clear, local, global; sort: histogram, offsets, pass, and
 * for wait-free passes count and scan). */
#define ALGO_KERNELS 5
/* Arguments per kernel at most (algo_call_launch's signatures). */
#define ALGO_ARGS 16
/* Look-back states are (epoch << 2) | state in 32 bits. */
#define EPOCH_LIMIT (1u << 30)

enum algo_kind {
	ALGO_REDUCE,
	ALGO_SCAN,
	ALGO_COMPACT,
	ALGO_PARTITION,
	ALGO_ROWS_REDUCE,
	ALGO_ROWS_SCAN,
	ALGO_SOFTMAX,
	ALGO_SORT,
	ALGO_UNIQUE,      /* compaction of run heads (scan.cl) */
	ALGO_RUNS,        /* run-length encode (value_type -1) and reduce by key */
	ALGO_HISTOGRAM,
};

struct algo_variant {
	enum algo_kind kind;
	clwarp_type type;
	clwarp_op op;
	int inclusive;         /* scan, rows: inclusive; sort: float keys in IEEE totalOrder
				  (CLWARP_SORT_TOTAL_ORDER, sort.cl's SORT_FLOAT_WORDS) */
	char *predicate;
	int value_type;        /* sort, runs: the values' clwarp_type, -1 for keys only */
	size_t wg;             /* the work-group size its kernels are built for */
	size_t query_wg;       /* nv sort: CL_KERNEL_WORK_GROUP_SIZE where it is below wg, a
				  width to verify before use (algo_sort.c); 0 once verified */
	uint8_t build_key[32]; /* SHA-256 of its program text and build options */
	unsigned vectors;      /* ITEMS_K: 16-byte vectors per work-item in a tile;
				  sort: SORT_ITEMS, keys per work-item */
	unsigned local_bins;   /* histogram: HIST_LOCAL_BINS, bins counted in local memory */
	bool sort_wait_free;   /* sort: SORT_WAIT_FREE passes (algorithms.sort_wait_free) */
	bool small;            /* the one-work-group kernels (ALGO_SMALL) */
	bool large;            /* reduce by key from by_key_regs_n elements (by_key_regs) */
	clwarp_kernel *kernels[ALGO_KERNELS];
	/* The value each argument holds now, where it may be left as it is:
	 * scalars, and the engine's temporaries while temps_gen is memo_gen
	 * (size 0: unknown, set it). Back-to-back calls set only what changed;
	 * callers' buffers are set every time, since a released handle's value
	 * may come back as another buffer. */
	struct {
		unsigned char size;
		unsigned char bytes[8];
	} memo[ALGO_KERNELS][ALGO_ARGS];
	unsigned long memo_gen[ALGO_KERNELS];
	struct algo_variant *next;
};

/* engine->algorithms; everything here is guarded by engine->algorithms_lock. */
struct algorithms {
	struct algo_variant *variants;
	cl_mem counter;        /* one uint, 0 between launches */
	cl_mem partials;       /* one value per reduce work-group */
	size_t partials_bytes;
	cl_mem tile_words;     /* look-back: one 64-bit state (+ value) word per tile */
	size_t tile_words_bytes;
	cl_mem tile_slots;     /* look-back: two value slots per tile (split protocol) */
	size_t tile_slots_bytes;
	cl_mem sort_bins;      /* sort: digit counts, then offsets, per pass (sort.cl) */
	size_t sort_bins_bytes;
	cl_mem sort_keys;      /* sort: the other half of the keys' double buffer */
	size_t sort_keys_bytes;
	cl_mem sort_values;
	size_t sort_values_bytes;
	cl_mem sort_counts;    /* sort, wait-free passes: every tile's digit counts, then positions */
	size_t sort_counts_bytes;
	bool sort_wait_free;   /* sort passes never wait across work-groups (the engine's
				  choice, made once: tuning.sort_lookback) */
	bool sort_wide_refused; /* a sort wider than the driver's query failed its check:
				   sort_wg is not asked for again */
	unsigned long temps_gen; /* +1 when any temporary above is released (algo_temp_reserve) */
	cl_uint epoch;
	cl_uint compute_units;
	struct algo_tuning tuning;
	size_t wg;             /* tuning.wg as the device allows (tuning's other work-group
				  sizes are already cut down to what it allows) */
	bool out_of_order;
};

struct type_desc {
	const char *name;
	size_t size;
	const char *min_identity;  /* the identity of min: the largest value */
	const char *max_identity;
	bool is_float;
	bool is_signed;            /* a signed integer type */
	const char *bits;          /* the unsigned integer type of the same width */
};

/* Every clwarp_type: algo_types[] has one entry each. */
#define ALGO_TYPE_COUNT (CLWARP_TYPE_USHORT + 1)

extern const struct type_desc algo_types[ALGO_TYPE_COUNT];
/* Bytes of an element, 0 for an unknown type, as clwarp_type_size(). */
size_t algo_type_size(clwarp_type type);
extern const char *const algo_op_names[3];  /* add, min, max: clwarp_op */

/*
 * One call: resolve the backend, then under the lock build or find the
 * kernels, size the temporaries, set arguments and enqueue. The lock makes
 * the shared temporaries and kernel objects safe across threads; the
 * engine's in-order queue runs the calls one after another.
 */
struct algo_call {
	const char *fn;
	clwarp_engine *engine;
	const struct backend_config *config;
	struct algorithms *a;
	struct algo_variant *v;
	bool events;          /* launch with events: the caller wants one, or the queue is out of order */
	cl_event last;
	/* With events, the latest launch waits here until the next command or
	 * the end of the call, so that only the call's last command makes an
	 * event (an event costs 2 us per launch on NVIDIA's driver). */
	clwarp_kernel *pending;
	size_t pending_global;
	bool locked;
};

/* One element of any clwarp_type. */
union algo_value {
	cl_char c;
	cl_uchar uc;
	cl_short s;
	cl_ushort us;
	cl_int i;
	cl_uint u;
	cl_long l;
	cl_ulong ul;
	cl_float f;
	cl_double d;
};

/* The identity of `op` for `type` (0, +0.0, the largest or smallest value,
 * +/-INFINITY), what a reduce of nothing gives. */
void algo_identity(clwarp_type type, clwarp_op op, union algo_value *v);

/* src/algorithms.c: the calls without the public entries' error reset,
 * their messages naming the call `fn` (algo_select_call: below).
 * algo_scan's `carry` (NULL: none) comes before the first element, as if
 * it were in[-1]. */
clwarp_status algo_reduce(const char *fn, clwarp_engine *engine, clwarp_type type, clwarp_op op,
			  cl_mem in, size_t n, cl_mem result, cl_event *event);
clwarp_status algo_scan(const char *fn, clwarp_engine *engine, clwarp_type type, clwarp_op op,
			int inclusive, cl_mem in, cl_mem out, size_t n,
			const union algo_value *carry, cl_event *event);
clwarp_status algo_rows(const char *fn, enum algo_kind kind, clwarp_engine *engine,
			clwarp_type type, clwarp_op op, int inclusive, cl_mem in, size_t rows,
			size_t row_length, cl_mem out, cl_event *event);

/* src/algo_sort.c: the sort without the public entries' error reset
 * (value_type -1: keys only), and the bit range its flags give. */
clwarp_status algo_sort(const char *fn, clwarp_engine *engine, clwarp_type key_type, cl_mem keys,
			int value_type, cl_mem values, size_t n, unsigned flags, cl_event *event);
clwarp_status algo_sort_bit_range(const char *fn, unsigned flags, unsigned key_bits,
				  unsigned *begin, unsigned *end);

/* src/algorithms.c: argument checks that name the call `fn`. */
clwarp_status algo_check_engine_type(const char *fn, clwarp_engine *engine, clwarp_type type,
				     clwarp_op op);
clwarp_status algo_checked_bytes(const char *fn, size_t count, size_t size, size_t *bytes);
clwarp_status algo_check_buffer(const char *fn, clwarp_engine *engine, cl_mem buffer,
				const char *what, size_t need);
clwarp_status algo_check_distinct(const char *fn, const cl_mem *buffers, const char *const *names,
				  unsigned count, unsigned inputs);
clwarp_status algo_check_count_n(const char *fn, size_t n);

/* One buffer a call needs: `bytes` 0 (nothing to read or write) skips it. */
struct algo_need {
	cl_mem mem;
	const char *name;
	size_t bytes;
};
#define ALGO_MAX_NEEDS 8
clwarp_status algo_check_buffers(const char *fn, clwarp_engine *engine,
				 const struct algo_need *need, unsigned count, unsigned inputs);
clwarp_status algo_check_wide_call(const char *fn, clwarp_engine *engine, clwarp_type type,
				   clwarp_op op);
clwarp_status algo_check_flags(const char *fn, unsigned flags, unsigned known, const char *names);
clwarp_status algo_check_wide_type(const char *fn, clwarp_type type);
clwarp_status algo_select_call(const char *fn, enum algo_kind kind, clwarp_engine *engine,
			       clwarp_type type, const char *predicate, cl_mem in, size_t n,
			       cl_mem out, cl_mem count, const char *count_name, cl_event *event);

/* src/algo_tuning.c */
clwarp_status algo_tuning_load(const clwarp_engine *engine, bool nv, struct algo_tuning *t);
/* The defaults (CLWARP_ALGO_TUNING's form) that the device named `device_name`
 * takes on nv over the backend's, NULL where it takes the backend's. */
const char *algo_device_tuning(const char *device_name);
void algo_tuning_naps(const struct algo_tuning *t, enum algo_kind kind, unsigned *wait, unsigned *poll,
		      unsigned *nap_groups);
unsigned algo_tuning_regs(const struct algo_tuning *t, const struct algo_variant *v);

/* src/algo_variants.c; callers hold engine->algorithms_lock. */
clwarp_status algo_state_get(clwarp_engine *engine, const struct backend_config *config,
			     struct algorithms **out);
clwarp_status algo_temp_reserve(clwarp_engine *engine, cl_mem *buf, size_t *have, size_t need);
clwarp_status algo_variant_get(const char *fn, clwarp_engine *engine, struct algorithms *a,
			       const struct backend_config *config, enum algo_kind kind,
			       clwarp_type type, clwarp_op op, int inclusive, const char *predicate,
			       int value_type, size_t n, struct algo_variant **out);

/* Build v again in the shape algo_kind_shape gives now (after
 * sort_wide_refused was set, say); where that fails, v is freed. */
clwarp_status algo_variant_rebuild(const char *fn, clwarp_engine *engine, struct algorithms *a,
				   const struct backend_config *config, struct algo_variant *v);

/* src/algo_kinds.c: what differs by kind (shapes, defines). */
struct strbuf;
unsigned algo_kind_vec(const struct algo_variant *v);
void algo_kind_defines(const struct algo_variant *v, struct strbuf *out);
clwarp_status algo_kind_shape(const clwarp_engine *engine, const struct algorithms *a,
			      const struct backend_config *config, struct algo_variant *v);

/* src/algo_call.c */
clwarp_status algo_call_begin(struct algo_call *c, const char *fn, clwarp_engine *engine,
			      enum algo_kind kind, clwarp_type type, clwarp_op op, int inclusive,
			      const char *predicate, int value_type, size_t n, const cl_event *event);
clwarp_status algo_call_launch(struct algo_call *c, unsigned which, size_t global, const char *sig, ...);
clwarp_status algo_call_marker(struct algo_call *c);
clwarp_status algo_call_copy(struct algo_call *c, cl_mem from, cl_mem to, size_t bytes);
clwarp_status algo_call_end(struct algo_call *c, clwarp_status status, cl_event *event);
clwarp_status algo_lookback_prepare(struct algo_call *c, size_t tiles, size_t value_size,
				    cl_uint *epoch);

/* Release the algorithms' kernels and temporary buffers (at engine teardown). */
void algorithms_free(clwarp_engine *engine);

#endif
