/* Kernels of the warp conformance test (tests/test-warp.c), built through the
 * engine, so the warp API comes from the backend prelude.
 *
 * Build options: -DCW_T=<type> picks the element type of conf_type;
 * -DCW_WITH_VOTES adds conf_votes.
 *
 * Every work-item works on slot g = group * (work-group size) + linear local
 * id, and n = the number of work-items, whatever the launch's dimensions:
 * the host reference then needs only g and the warp width (a warp is a run
 * of W consecutive linear local ids, so of consecutive slots). */

static uint conf_linear_local_id(void)
{
	return (uint)(get_local_id(0) + get_local_size(0) *
		(get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

static uint conf_slot(void)
{
	uint size = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
	uint group = (uint)(get_group_id(0) + get_num_groups(0) *
		(get_group_id(1) + get_num_groups(1) * get_group_id(2)));
	return group * size + conf_linear_local_id();
}

static uint conf_items(void)
{
	return (uint)(get_global_size(0) * get_global_size(1) * get_global_size(2));
}

#ifdef CW_T
/* Helpers that are ordinary (not inlined by request) functions: the warp
 * context travels through CLWARP_WARP_PARAM / CLWARP_WARP_ARG, two levels
 * deep. */
CW_T conf_helper_reduce_add(CLWARP_WARP_PARAM, CW_T x)
{
	return warp_reduce_add(x);
}

CW_T conf_helper_rotate(CLWARP_WARP_PARAM, CW_T x)
{
	/* the value of the next lane, wrapping at the warp's end */
	return warp_shuffle(x, warp_lane_id() + 1u);
}

CW_T conf_helper_outer(CLWARP_WARP_PARAM, CW_T x)
{
	return conf_helper_rotate(CLWARP_WARP_ARG, x);
}

/* out[f * n + g] for these fields f (the host's table in test-warp.c has
 * the same order). s: values moved bit for bit; a: add input; m: min/max
 * input; args: four per-lane operands per slot; uni: nu uniform operands,
 * each used for five more fields (a loop keeps the kernel small: PoCL
 * compiles one work-group function per local size, and its time grows with
 * the number of call sites). */
#define CONF_FIXED_FIELDS 15

kernel void conf_type(global const CW_T *s, global const CW_T *a, global const CW_T *m,
                      global const uint *args, global const uint *uni, uint nu,
                      global CW_T *out)
{
	uint g = conf_slot();
	uint n = conf_items();
	CW_T sv = s[g], av = a[g], mv = m[g];

	out[0 * n + g] = warp_shuffle(sv, args[g * 4 + 0]);
	out[1 * n + g] = warp_shuffle_down(sv, args[g * 4 + 1]);
	out[2 * n + g] = warp_shuffle_up(sv, args[g * 4 + 2]);
	out[3 * n + g] = warp_shuffle_xor(sv, args[g * 4 + 3]);
	out[4 * n + g] = warp_reduce_add(av);
	out[5 * n + g] = warp_reduce_min(mv);
	out[6 * n + g] = warp_reduce_max(mv);
	out[7 * n + g] = warp_scan_inclusive_add(av);
	out[8 * n + g] = warp_scan_inclusive_min(mv);
	out[9 * n + g] = warp_scan_inclusive_max(mv);
	out[10 * n + g] = warp_scan_exclusive_add(av);
	out[11 * n + g] = warp_scan_exclusive_min(mv);
	out[12 * n + g] = warp_scan_exclusive_max(mv);
	out[13 * n + g] = conf_helper_reduce_add(CLWARP_WARP_ARG, av);
	out[14 * n + g] = conf_helper_outer(CLWARP_WARP_ARG, sv);
	/* every lane runs the same number of iterations: the contract holds */
	for (uint j = 0; j < nu; j++) {
		uint u = uni[j];
		uint f = CONF_FIXED_FIELDS + 5 * j;

		out[(f + 0) * n + g] = warp_shuffle_down(sv, u);
		out[(f + 1) * n + g] = warp_shuffle_up(sv, u);
		out[(f + 2) * n + g] = warp_shuffle_xor(sv, u);
		out[(f + 3) * n + g] = warp_shuffle(sv, u);
		out[(f + 4) * n + g] = warp_broadcast(sv, u);
	}
}
#endif

#ifdef CW_WITH_VOTES
/* Votes, ids and warp_barrier; out[f * n + g] as ulong. preds holds
 * CONF_PATTERNS predicate patterns of n ints each. For pattern p:
 * field 3p warp_all, 3p+1 warp_any, 3p+2 warp_ballot. Then lane id, warp id,
 * warp count, warp size, and two reads of tmp across warp_barrier. */
#define CONF_PATTERNS 6

kernel void conf_votes(global const int *preds, global ulong *out, local uint *tmp)
{
	uint g = conf_slot();
	uint n = conf_items();
	uint lid = conf_linear_local_id();
	uint f = 0;

	for (int p = 0; p < CONF_PATTERNS; p++) {
		int pred = preds[p * n + g];
		out[f++ * n + g] = (ulong)warp_all(pred);
		out[f++ * n + g] = (ulong)warp_any(pred);
		out[f++ * n + g] = warp_ballot(pred);
	}
	uint lane = warp_lane_id();
	uint w = warp_size();
	uint base = lid - lane;
	out[f++ * n + g] = lane;
	out[f++ * n + g] = warp_id();
	out[f++ * n + g] = warp_count();
	out[f++ * n + g] = w;
	/* write, barrier, read a neighbour; barrier, overwrite, barrier, read
	 * another: both the write-read and the read-write order are checked */
	tmp[lid] = g * 3u + 1u;
	warp_barrier();
	out[f++ * n + g] = tmp[base + (lane + 1u) % w];
	warp_barrier();
	tmp[lid] = g * 5u + 2u;
	warp_barrier();
	out[f++ * n + g] = tmp[base + (lane + w - 1u) % w];
}
#endif
