/* Device-wide algorithms: the tuning (tile and grid shapes, look-back
 * naps), its defaults by device and CLWARP_ALGO_TUNING over them. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "error.h"
#include "log.h"
#include "util.h"

/*
 * Measured on an H100 with bench/tune-gpu.sh (docs/design/reduce-scan.md):
 * scan tiles of 128 x 8 beat 256 x 4 (the same 4096 floats) by
 * 1.11-1.15x at n >= 2^22; compaction tiles of 256 x 6 beat 128 x 8 by
 * 1.04-1.10x there, and cost scans 2-7 %.
 */
static const struct algo_tuning default_tuning = {
	.wg = 256,
	.scan_wg = 128,
	.scan_vectors = 8,
	.select_wg = 256,
	.select_vectors = 6,
	.reduce_groups = 4,
	.reduce_unroll = 4,
	.packed_lookback = 1,
	.sort_items = 0,
	.runs_wg = 0,
	.runs_vectors = 0,
	.histogram_bins = 4096,
	.histogram_wg = 0,
	.histogram_vectors = 4,
	.histogram_groups = 0,
	/* Compaction: CUB's delays for DeviceSelect::If on sm_90 (1150 ns, 76 ns)
	 * made it 1.14-1.27x as fast at 2^25-2^28 floats on the H100 (one
	 * outlier of eight points, 0.87); partition lost up to 4 % with them
	 * (one point 12 %) and gained 1.09-1.11x with CUB's generic ones (450, 350)
	 * (docs/design/select.md). */
	.select_wait = 1150,
	.select_poll = 76,
	.partition_wait = 450,
	.partition_poll = 350,
	/* Run-length encode and reduce by key: compaction's delays, in
	 * launches of RUNS_NAP_GROUPS work-groups or more. On an H100 they
	 * made reduce by key 1.00-1.15x and run-length encode up to 1.14x as
	 * fast at 2^24-2^28 and cost 5-20 % at 2^22, 512 tiles
	 * (docs/design/hist-rle.md). The wrong NVIDIA build they once gave is worked
	 * around in runs.cl (docs/design/lookback.md). */
	.runs_wait = 1150,
	.runs_poll = 76,
	/* Scan: CUB's delays for float sums on sm_90 (1140 ns, 688 ns) made
	 * float and int scans 1.08-1.17x as fast at 2^22-2^28 in one round of
	 * H100 runs, 1.01-1.19x at 2^24-2^28 in another; unique: the first
	 * nap alone, 1.16-1.25x at 2^26-2^28 (docs/design/lookback.md,
	 * "Naps"). */
	.scan_wait = 1140,
	.scan_poll = 688,
	.unique_wait = 1150,
	.unique_poll = 0,
	.sort_lookback = SORT_LOOKBACK_AUTO,
	.sort_pairs_items = 0,
	.sort_wide_items = 0,
	.sort_wg = 0,
	.sort_regs = 0,
	.sort_pairs_regs = 0,
	.sort_wide_pairs_regs = 0,
	/* Compaction and unique on nv: 64 registers (80 without a cap; 4
	 * work-groups of 256 an SM instead of 3) made compaction 1.02-1.15x and
	 * unique 1.03-1.14x as fast at 2^24-2^28 on an H200, for 36 bytes of
	 * spills; sparse compaction at 2^20-2^22 lost up to 19 % in one of two
	 * rounds.
	 * Partition (126 registers) lost 5-35 % with 64 or 80, and reduce by
	 * key (108) 8-22 % at 2^22 with 80, though 1.07-1.13x from 2^26
	 * (docs/design/select.md, docs/design/hist-rle.md). */
	.select_regs = 64,
	.runs_regs = 0,
	.histogram_regs = 0,
	/* Reduce by key on nv from 2^25 elements: 80 registers (108 without a
	 * cap; 3 work-groups of 256 an SM instead of 2) made it 1.07-1.13x as
	 * fast at 2^26-2^28 with runs of 4 and 64 on an H200 (runs of 1: no
	 * change), and cost 8-22 % at 2^22, where the launch has too few
	 * work-groups to fill the SMs either way (docs/design/hist-rle.md). */
	.by_key_regs = 80,
	.by_key_regs_n = 1u << 25,
	.small_n = SMALL_AUTO,
	.small_select_n = SMALL_AUTO,
	.small_wg = SMALL_AUTO,
	.small_vectors = SMALL_AUTO,
};

/* The keys of CLWARP_ALGO_TUNING (tuning_parse), each a field of struct
 * algo_tuning, with its range. */
struct tuning_key {
	const char *key;
	size_t offset;
	unsigned lo, hi;
	bool power_of_two;
};

static const struct tuning_key tuning_keys[] = {
	{ "wg", offsetof(struct algo_tuning, wg), 1, 1024, true },
	{ "scan_wg", offsetof(struct algo_tuning, scan_wg), 1, 1024, true },
	/* A tile lives in registers: 32 elements per work-item at most. */
	{ "scan_vectors", offsetof(struct algo_tuning, scan_vectors), 1, 8, false },
	{ "select_wg", offsetof(struct algo_tuning, select_wg), 1, 1024, true },
	/* clwarp_select also keeps one bit per element in a uint. */
	{ "select_vectors", offsetof(struct algo_tuning, select_vectors), 1, 8, false },
	{ "unique_vectors", offsetof(struct algo_tuning, unique_vectors), 1, 8, false },
	{ "reduce_groups", offsetof(struct algo_tuning, reduce_groups), 1, 64, false },
	{ "reduce_unroll", offsetof(struct algo_tuning, reduce_unroll), 1, 16, false },
	{ "packed_lookback", offsetof(struct algo_tuning, packed_lookback), 0, 1, false },
	/* A sort tile also lives in registers. */
	{ "sort_items", offsetof(struct algo_tuning, sort_items), 2, 32, false },
	/* Run heads are one bit each in a uint: 32 elements per work-item. */
	{ "runs_wg", offsetof(struct algo_tuning, runs_wg), 1, 1024, true },
	{ "runs_vectors", offsetof(struct algo_tuning, runs_vectors), 1, 8, false },
	/* 0: every histogram counts with global atomics. */
	{ "histogram_bins", offsetof(struct algo_tuning, histogram_bins), 0, 65536, false },
	/* The default, 0, takes wg. */
	{ "histogram_wg", offsetof(struct algo_tuning, histogram_wg), 1, 1024, true },
	{ "histogram_vectors", offsetof(struct algo_tuning, histogram_vectors), 1, 8, false },
	/* The default, 0, takes reduce_groups. */
	{ "histogram_groups", offsetof(struct algo_tuning, histogram_groups), 1, 64, false },
	/* Nanoseconds asleep in the look-back (nv). */
	{ "select_wait", offsetof(struct algo_tuning, select_wait), 0, 100000, false },
	{ "select_poll", offsetof(struct algo_tuning, select_poll), 0, 100000, false },
	{ "partition_wait", offsetof(struct algo_tuning, partition_wait), 0, 100000, false },
	{ "partition_poll", offsetof(struct algo_tuning, partition_poll), 0, 100000, false },
	{ "runs_wait", offsetof(struct algo_tuning, runs_wait), 0, 100000, false },
	{ "runs_poll", offsetof(struct algo_tuning, runs_poll), 0, 100000, false },
	{ "scan_wait", offsetof(struct algo_tuning, scan_wait), 0, 100000, false },
	{ "scan_poll", offsetof(struct algo_tuning, scan_poll), 0, 100000, false },
	{ "unique_wait", offsetof(struct algo_tuning, unique_wait), 0, 100000, false },
	{ "unique_poll", offsetof(struct algo_tuning, unique_poll), 0, 100000, false },
	/* 0: wait-free sort passes, 1: look-back (Onesweep), 2: by device type. */
	{ "sort_lookback", offsetof(struct algo_tuning, sort_lookback), 0, 2, false },
	{ "sort_pairs_items", offsetof(struct algo_tuning, sort_pairs_items), 2, 32, false },
	{ "sort_wide_items", offsetof(struct algo_tuning, sort_wide_items), 2, 32, false },
	/* Keys alone of 4 bytes or less; a width that divides 256 or is wider,
	 * in whole warps (algo_kinds.c, sort_width). 0: wg, at most 256. */
	{ "sort_wg", offsetof(struct algo_tuning, sort_wg), 0, 1024, false },
	/* Registers per work-item of the sort kernels on nv (0: no cap). */
	{ "sort_regs", offsetof(struct algo_tuning, sort_regs), 0, 255, false },
	{ "sort_pairs_regs", offsetof(struct algo_tuning, sort_pairs_regs), 0, 255, false },
	{ "sort_wide_pairs_regs", offsetof(struct algo_tuning, sort_wide_pairs_regs), 0, 255, false },
	{ "select_regs", offsetof(struct algo_tuning, select_regs), 0, 255, false },
	{ "runs_regs", offsetof(struct algo_tuning, runs_regs), 0, 255, false },
	{ "histogram_regs", offsetof(struct algo_tuning, histogram_regs), 0, 255, false },
	{ "by_key_regs", offsetof(struct algo_tuning, by_key_regs), 0, 255, false },
	{ "by_key_regs_n", offsetof(struct algo_tuning, by_key_regs_n), 0, 1u << 31, false },
	/* The one-work-group path: 4-byte elements at most (0: never). */
	{ "small_n", offsetof(struct algo_tuning, small_n), 0, 1u << 28, false },
	{ "small_select_n", offsetof(struct algo_tuning, small_select_n), 0, 1u << 28, false },
	{ "small_wg", offsetof(struct algo_tuning, small_wg), 1, 1024, true },
	{ "small_vectors", offsetof(struct algo_tuning, small_vectors), 1, 8, false },
};

/*
 * "key=value,..." with the keys of struct algo_tuning, over what `t` holds:
 * CLWARP_ALGO_TUNING, for trying other tile and grid shapes in benchmarks
 * (docs/algorithms.md) without rebuilding the library, and the defaults
 * of one device (device_tunings below).
 */
static clwarp_status
tuning_parse(const char *text, struct algo_tuning *t)
{
	const struct tuning_key *keys = tuning_keys;
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "=,");
		size_t k = 0;
		unsigned long value;
		char *end;

		while (k < ARRAY_LENGTH(tuning_keys) &&
		       !(strlen(keys[k].key) == len && strncmp(keys[k].key, p, len) == 0))
			k++;
		if (k == ARRAY_LENGTH(tuning_keys) || p[len] != '=')
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "CLWARP_ALGO_TUNING=\"%s\": expected key=value[,key=value...] with keys wg, scan_wg, scan_vectors, select_wg, select_vectors, unique_vectors, reduce_groups, reduce_unroll, packed_lookback, sort_items, runs_wg, runs_vectors, histogram_bins, histogram_wg, histogram_vectors, histogram_groups, select_wait, select_poll, partition_wait, partition_poll, runs_wait, runs_poll, scan_wait, scan_poll, unique_wait, unique_poll, sort_lookback, sort_pairs_items, sort_wide_items, sort_wg, sort_regs, sort_pairs_regs, sort_wide_pairs_regs, select_regs, runs_regs, histogram_regs, by_key_regs, by_key_regs_n, small_n, small_select_n, small_wg, small_vectors",
					 text);
		p += len + 1;
		errno = 0;
		value = strtoul(p, &end, 10);
		if (end == p || errno || (*end && *end != ',') || value < keys[k].lo ||
		    value > keys[k].hi || (keys[k].power_of_two && (value & (value - 1))))
			return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
					 "CLWARP_ALGO_TUNING: %s must be %s from %u to %u", keys[k].key,
					 keys[k].power_of_two ? "a power of two" : "a whole number",
					 keys[k].lo, keys[k].hi);
		*(unsigned *)((char *)t + keys[k].offset) = (unsigned)value;
		p = *end ? end + 1 : end;
	}
	return CLWARP_OK;
}

/*
 * The one-work-group path for small n, by device kind where the tuning
 * leaves it open. GPUs: work-groups as wide as the device takes (1024 asked;
 * NVIDIA's OpenCL allows 256 for every kernel, so they run 256 wide
 * there, contrib/driver-bugs/nvidia-driver/README.md), so that one of them has many
 * loads in flight, and 2 vectors
 * per work-item (a tile of 8192 4-byte elements; twice that in registers
 * with the next tile's loads); up to 2^14 elements, where on the H100 a
 * one-launch copy of n elements takes 13-16 us and the look-back calls
 * took 2.5-6 us more (docs/design/host.md). Compaction,
 * partition and unique up to 2^13 only: on an H200 at 2^14 their one
 * work-group took 17-22 us a blocking call, the look-back path at 2^15
 * 14 us (docs/design/host.md).
 * CPUs: one work-group of the usual width, which takes one core, up to
 * 2^12: on PoCL 3.1 here (2 shared cores) its blocking scans took up to
 * 1.7x the look-back path's time from 2^11 to 2^14, while its reduce
 * took 0.6x at 2^13-2^14 (docs/design/host.md).
 */
static void
small_defaults(const clwarp_engine *engine, struct algo_tuning *t)
{
	bool cpu = (engine->info.type & CL_DEVICE_TYPE_CPU) != 0;

	if (t->small_n == SMALL_AUTO)
		t->small_n = cpu ? 1u << 12 : 1u << 14;
	if (t->small_select_n == SMALL_AUTO)
		t->small_select_n = cpu ? t->small_n : t->small_n / 2;
	if (t->small_wg == SMALL_AUTO)
		t->small_wg = cpu ? t->wg : 1024;
	if (t->small_vectors == SMALL_AUTO)
		t->small_vectors = cpu ? 4 : 2;
}

/*
 * Defaults of one device on nv, over the backend's, for the devices whose
 * name starts with `name` (CLBlast keeps a database of tunings by device
 * name in the same way). An entry holds only what was timed against the
 * backend's defaults on that device, with CUB in the same job; the other
 * NVIDIA GPUs keep the backend's.
 */
static const struct {
	const char *name;
	const char *tuning;
} device_tunings[] = {
	/* Pairs of 4-byte keys and values: 3 work-groups of 256 an SM at 80
	 * registers took 0.95-0.98x the time of 2 at 128 registers on an H200
	 * (docs/design/sort-gpu.md). Since pairs stage
	 * each key as it is ranked, tiles of 32 keys a work-item (the most
	 * 48 KB of local memory holds; 4 bytes spilled) take 0.92-0.94x the
	 * time of 24 there, 0.96-0.98 of CUB at 2^24-2^28 uint pairs
	 * (docs/design/sort-gpu.md). On an H100
	 * the cap cost 1.10-1.18x
	 * (docs/design/sort-gpu.md). Pairs with 8-byte
	 * keys or values at 80 registers instead of the compiler's 88-96
	 * (3 work-groups an SM instead of 2) took 0.89-0.91x the time at
	 * 2^24-2^28 for ulong keys with uint values, 0.93-0.94x for uint keys
	 * with ulong values and 1.00x for ulong keys and values
	 * (docs/design/sort-gpu.md). */
	{ "NVIDIA H200", "sort_pairs_regs=80,sort_pairs_items=32,sort_wide_pairs_regs=80" },
};

const char *
algo_device_tuning(const char *device_name)
{
	for (size_t i = 0; device_name && i < ARRAY_LENGTH(device_tunings); i++) {
		const char *name = device_tunings[i].name;

		if (strncmp(device_name, name, strlen(name)) == 0)
			return device_tunings[i].tuning;
	}
	return NULL;
}

/* The tuning for one engine: the defaults, the device's own defaults over
 * them (nv), CLWARP_ALGO_TUNING over those (unless the engine ignores the
 * environment), then what the tuning leaves
 * open, by backend and device kind. */
clwarp_status
algo_tuning_load(const clwarp_engine *engine, bool nv, struct algo_tuning *t)
{
	const char *text = (engine->flags & CLWARP_ENGINE_NO_ENVIRONMENT) ? NULL :
			   getenv("CLWARP_ALGO_TUNING");
	const char *own = nv ? algo_device_tuning(engine->info.name) : NULL;
	clwarp_status status = CLWARP_OK;

	*t = default_tuning;
	if (own) {
		log_info(&engine->logger, "algorithms: %s's defaults: %s", engine->info.name, own);
		status = tuning_parse(own, t);
	}
	if (status == CLWARP_OK && text)
		status = tuning_parse(text, t);
	/* Run-length encode and reduce by key on nv: tiles of 256 x 8 vectors
	 * took 0.73-0.89x the time of 128 x 4 on the H100 (2^24-2^28 uint
	 * keys, runs of 1, 4 and 64; docs/design/hist-rle.md): fewer, larger
	 * tiles, so fewer look-back steps per key. */
	if (!t->runs_wg)
		t->runs_wg = nv ? 256 : t->scan_wg;
	if (!t->runs_vectors)
		t->runs_vectors = nv ? 8 : 4;
	/* Unique on nv: tiles of 256 x 5 vectors took 0.90-0.91x the time
	 * of 256 x 6 back to back at 2^22-2^23 keys on an H200 (runs of 4;
	 * 683 tiles of 6144 keys at 2^22 leave a tail on 528 work-group
	 * slots), 0.98x at 2^24 and 1.01x at 2^26-2^28
	 * (docs/design/select.md). */
	if (!t->unique_vectors)
		t->unique_vectors = nv ? 5 : t->select_vectors;
	if (!t->histogram_wg)
		t->histogram_wg = t->wg;
	if (!t->histogram_groups)
		t->histogram_groups = t->reduce_groups;
	/* Pairs on nv: tiles of 256 x 20 took 0.89x the time of 256 x 16 on
	 * the H100 (2^28 uint pairs; keys alone: 0.97-1.03x, so they keep 16),
	 * and 256 x 24 then 0.94x that of 256 x 20 (docs/design/sort-gpu.md).
	 * Since the pairs kernel keeps its staged digits in local memory (96
	 * registers at 24, 128 at 28: still 2 work-groups an SM), 256 x 28
	 * took 0.97-0.99x the time of the old kernel at 256 x 24 on an H100
	 * at 2^24-2^28 uint pairs, 0.89-0.92 of CUB, and 0.96-0.99x on an
	 * H200, 0.82-0.84 (256 x 32: 134 registers, 1.4x; 3 alternated
	 * rounds, docs/design/sort-gpu.md).
	 * 8-byte keys alone on nv: tiles of 256 x 16 (sort_wide_items 32; 84
	 * registers, 2 work-groups an SM) took 0.90x the time of 256 x 10 on
	 * an H200 at 2^24-2^28 ulong keys, 0.97-0.99 of CUB, in 4 alternated
	 * rounds (256 x 12 took 0.91-0.92x, 256 x 14 0.94-0.95x), and
	 * 0.88-0.90x on an H100, 0.94-0.98 of CUB
	 * (docs/design/sort-gpu.md). Pairs with 8-byte keys
	 * take the same 256 x 16 (92 registers): ulong keys with uint values
	 * took 0.85-0.89x the time of 256 x 12 (the old 24 halved; 72
	 * registers, 3 work-groups an SM) on an H100, 0.90-0.93 of CUB, and
	 * 1.00x on an H200, 0.82-0.85; 256 x 14 took 0.89-0.91x and 1.04-1.06x
	 * (docs/design/sort-gpu.md). */
	if (!t->sort_pairs_items)
		t->sort_pairs_items = nv ? 28 : t->sort_items ? t->sort_items : 16;
	if (!t->sort_wide_items)
		t->sort_wide_items = nv ? 32 : t->sort_items ? t->sort_items : 16;
	small_defaults(engine, t);
	return status;
}

/* Runs nap from this many tiles (n >= 2^24 for 4-byte keys at nv's
 * tile of 8192); the other kinds from 500 (common.cl, ALGO_NAP_GROUPS). */
#define RUNS_NAP_GROUPS 2048

/* The look-back naps of a kind on nv, in ns (0: none): before the first
 * poll, and after each poll that finds a predecessor not ready; and from
 * how many work-groups a launch naps (0: common.cl's default). */
void
algo_tuning_naps(const struct algo_tuning *t, enum algo_kind kind, unsigned *wait, unsigned *poll,
		 unsigned *nap_groups)
{
	*nap_groups = 0;
	switch (kind) {
	case ALGO_SCAN:
		*wait = t->scan_wait, *poll = t->scan_poll;
		break;
	case ALGO_COMPACT:
		*wait = t->select_wait, *poll = t->select_poll;
		break;
	case ALGO_PARTITION:
		*wait = t->partition_wait, *poll = t->partition_poll;
		break;
	case ALGO_UNIQUE:
		*wait = t->unique_wait, *poll = t->unique_poll;
		break;
	case ALGO_RUNS:
		*wait = t->runs_wait, *poll = t->runs_poll;
		*nap_groups = RUNS_NAP_GROUPS;
		break;
	default:
		*wait = *poll = 0;
	}
}

/*
 * Registers per work-item for a variant's kernels on nv (0: the
 * compiler's choice), given as -cl-nv-maxrregcount: a cap lets more
 * work-groups share an SM. 4-byte keys alone sort with 64 (room for 4
 * work-groups of 256 an SM), with larger tiles (algo_kinds.c,
 * sort_shape); pairs lost 1.4-1.6x with it (docs/design/sort-gpu.md).
 * A cap of 80 for pairs of 4-byte keys and
 * values (3 work-groups an SM instead of 2) made them 1.04-1.09x as fast
 * at 2^24-2^28 on an H200, but with each key's peers then ranked in turn
 * (1.02-1.03x more on the H200) 1.05-1.13x slower on an H100
 * (docs/design/sort-gpu.md), so
 * pairs of 4-byte keys and values take sort_pairs_regs: no cap, but 80 on
 * an H200 (device_tunings), and pairs with 8-byte keys or values
 * sort_wide_pairs_regs, the same.
 * Compaction and unique take select_regs, run-length encode
 * and reduce by key runs_regs, and reduce by key on large inputs
 * by_key_regs (default_tuning above). A small variant's
 * one work-group must fit an SM's 65536 registers.
 */
unsigned
algo_tuning_regs(const struct algo_tuning *t, const struct algo_variant *v)
{
	if (v->small)
		return v->wg >= 512 ? (unsigned)(65536 / v->wg) : 0;
	switch (v->kind) {
	case ALGO_SORT:
		if (t->sort_regs)
			return t->sort_regs;
		if (v->value_type < 0)
			return algo_types[v->type].size == 4 ? 64 : 0;
		return algo_types[v->type].size < 8 && algo_types[v->value_type].size < 8
			       ? t->sort_pairs_regs : t->sort_wide_pairs_regs;
	case ALGO_COMPACT:
	case ALGO_UNIQUE:
		return t->select_regs;
	case ALGO_RUNS:
		return v->large ? t->by_key_regs : t->runs_regs;
	case ALGO_HISTOGRAM:
		return t->histogram_regs;
	default:
		return 0;
	}
}
