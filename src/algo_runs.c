/* Runs of equal keys: clwarp_run_length_encode and clwarp_reduce_by_key
 * (kernels/algorithms/runs.cl); clwarp_unique is a compaction
 * (src/algorithms.c). */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <string.h>

#include "clwarp/algorithms.h"
#include "error.h"

/* The buffers of a call and their parameter names, for the messages:
 * keys, values, unique keys, aggregates, number of runs. */
enum { RUNS_KEYS, RUNS_VALUES, RUNS_UNIQUE, RUNS_AGGREGATES, RUNS_COUNT, RUNS_BUFFERS };

/*
 * One pass over the keys (and values): value_type -1 is run-length
 * encoding, whose aggregates are the runs' lengths as cl_uint (and which
 * has no values buffer).
 */
static clwarp_status
runs_call(const char *fn, clwarp_engine *engine, clwarp_type key_type, int value_type, size_t n,
	  clwarp_op op, const cl_mem *buffers, const char *const *names, cl_event *event)
{
	struct algo_call c;
	size_t key_bytes = 0, value_bytes = 0, vsize, tile, tiles = 0;
	cl_uint epoch = 0;
	clwarp_status status;

	clear_error();
	status = algo_check_engine_type(fn, engine, key_type, op);
	/* The values are combined: double values need cl_khr_fp64 too. */
	if (status == CLWARP_OK && value_type >= 0)
		status = algo_check_engine_type(fn, engine, (clwarp_type)value_type, op);
	/* Mesa's rusticl (llvmpipe, Mesa 25.0) kills the process with SIGFPE
	 * in reduce by key's min or max of char values, on either backend
	 * (CI's trixie step; uchar, short and the sums run):
	 * refused there rather than crash. */
	if (status == CLWARP_OK && value_type == CLWARP_TYPE_CHAR && op != CLWARP_OP_ADD &&
	    engine->info.platform_name && strstr(engine->info.platform_name, "rusticl"))
		status = set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				   "%s: the %s of char values is not supported on Mesa's rusticl, whose compiled kernel dies of SIGFPE (Mesa 25.0); use short values",
				   fn, op == CLWARP_OP_MIN ? "min" : "max");
	if (status == CLWARP_OK)
		status = algo_check_count_n(fn, n);
	vsize = value_type >= 0 ? algo_types[value_type].size : sizeof(cl_uint);
	if (status == CLWARP_OK)
		status = algo_checked_bytes(fn, n, algo_types[key_type].size, &key_bytes);
	if (status == CLWARP_OK)
		status = algo_checked_bytes(fn, n, vsize, &value_bytes);
	/* With n == 0 only num_runs is written. */
	if (status == CLWARP_OK) {
		struct algo_need need[RUNS_BUFFERS];

		for (unsigned i = 0; i < RUNS_BUFFERS; i++) {
			need[i].mem = buffers[i];
			need[i].name = names[i];
			need[i].bytes = i == RUNS_COUNT ? sizeof(cl_uint) :
					(i == RUNS_VALUES && value_type < 0) || n == 0 ? 0 :
					i == RUNS_KEYS || i == RUNS_UNIQUE ? key_bytes : value_bytes;
		}
		status = algo_check_buffers(fn, engine, need, RUNS_BUFFERS, value_type >= 0 ? 2 : 1);
	}
	if (status != CLWARP_OK)
		return status;

	status = algo_call_begin(&c, fn, engine, ALGO_RUNS, key_type, op, 0, NULL, value_type, n,
				 event);
	if (status == CLWARP_OK) {
		tile = c.v->wg * c.v->vectors * algo_kind_vec(c.v);
		tiles = n ? n / tile + (n % tile != 0) : 1;
		/* Look-back values are (heads, value) pairs: uint2 or ulong2;
		 * uint2 pairs may take two words a tile (runs.cl). */
		status = algo_lookback_prepare(&c, 2 * tiles, vsize == 8 ? 16 : 8, &epoch);
	}
	/* With n == 0 one tile still runs, to write num_runs: nothing else is
	 * read or written then, any buffer will do. */
	if (status == CLWARP_OK) {
		cl_mem count_buffer = buffers[RUNS_COUNT];
		cl_mem keys = n ? buffers[RUNS_KEYS] : count_buffer;

		status = algo_call_launch(&c, 0, tiles * c.v->wg, "bbbbbluuttt", keys,
					  n && value_type >= 0 ? buffers[RUNS_VALUES] : keys,
					  n ? buffers[RUNS_UNIQUE] : count_buffer,
					  n ? buffers[RUNS_AGGREGATES] : count_buffer, count_buffer,
					  (cl_ulong)n, (cl_uint)tiles, epoch, c.a->counter,
					  c.a->tile_words, c.a->tile_slots);
	}
	return algo_call_end(&c, status, event);
}

CLWARP_EXPORT clwarp_status
clwarp_run_length_encode(clwarp_engine *engine, clwarp_type type, cl_mem in, cl_mem unique_out,
			 cl_mem counts_out, cl_mem num_runs, size_t n, cl_event *event)
{
	const cl_mem buffers[] = { in, NULL, unique_out, counts_out, num_runs };
	const char *const names[] = { "in", "", "unique_out", "counts_out", "num_runs" };

	return runs_call("clwarp_run_length_encode", engine, type, -1, n, CLWARP_OP_ADD, buffers,
			 names, event);
}

CLWARP_EXPORT clwarp_status
clwarp_reduce_by_key(clwarp_engine *engine, clwarp_type key_type, clwarp_type value_type,
		     cl_mem keys_in, cl_mem values_in, cl_mem unique_keys_out, cl_mem aggregates_out,
		     cl_mem num_runs, size_t n, clwarp_op op, cl_event *event)
{
	const cl_mem buffers[] = { keys_in, values_in, unique_keys_out, aggregates_out, num_runs };
	const char *const names[] = { "keys_in", "values_in", "unique_keys_out", "aggregates_out",
				      "num_runs" };

	if ((unsigned)value_type >= ALGO_TYPE_COUNT) {
		clear_error();
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT,
				 "clwarp_reduce_by_key: unknown value type %d", (int)value_type);
	}
	return runs_call("clwarp_reduce_by_key", engine, key_type, (int)value_type, n, op, buffers,
			 names, event);
}
