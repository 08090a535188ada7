/* libclwarp probe: launched with global 64, local 64 (one work-group of
 * 64 / W warps). With gid = get_global_id(0), W = warp width,
 * lane = gid % W, warp = gid / W, base = warp * W, and
 * v(i) = (int)(i * 7 % 13) - 5 (so v is in [-5, 7]), work-item gid writes
 * out[field * 64 + gid] for these fields:
 *   0  warp_lane_id()                      lane
 *   1  warp_shuffle(v, lane * 5 + 3)       v(base + (lane * 5 + 3) % W)
 *   2  warp_shuffle_down(v, 1)             lane + 1 < W ? v(gid + 1) : v(gid)
 *   3  warp_shuffle_up(v, 2)               lane >= 2 ? v(gid - 2) : v(gid)
 *   4  warp_shuffle_xor(v, 1)              (lane ^ 1) < W ? v(base + (lane ^ 1)) : v(gid)
 *   5  warp_broadcast(v, 0)                v(base)
 *   6  warp_reduce_add(v)                  sum of v(base .. base + W - 1)
 *   7  warp_reduce_min(v)                  min over the warp
 *   8  warp_reduce_max(v)                  max over the warp
 *   9  warp_scan_inclusive_add(v)          sum of v(base .. gid)
 *  10  warp_scan_exclusive_max(v)          max of v(base .. gid - 1), INT_MIN on lane 0
 *  11  warp_all(v > -6)                    1
 *  12  warp_any(v == 100)                  0
 *  13  (int)warp_ballot(v > 0)             bits 0..31: bit i set iff v(base + i) > 0
 *  14  (int)(warp_ballot(v > 0) >> 32)     bits 32..63 (0 unless W == 64)
 *  15  warp_id()                           warp
 */
__kernel void clwarp_probe(__global int *out)
{
	uint gid = get_global_id(0);
	uint lane = warp_lane_id();
	int v = (int)(gid * 7 % 13) - 5;
	ulong ballot = warp_ballot(v > 0);

	out[0 * 64 + gid] = (int)lane;
	out[1 * 64 + gid] = warp_shuffle(v, lane * 5 + 3);
	out[2 * 64 + gid] = warp_shuffle_down(v, 1u);
	out[3 * 64 + gid] = warp_shuffle_up(v, 2u);
	out[4 * 64 + gid] = warp_shuffle_xor(v, 1u);
	out[5 * 64 + gid] = warp_broadcast(v, 0u);
	out[6 * 64 + gid] = warp_reduce_add(v);
	out[7 * 64 + gid] = warp_reduce_min(v);
	out[8 * 64 + gid] = warp_reduce_max(v);
	out[9 * 64 + gid] = warp_scan_inclusive_add(v);
	out[10 * 64 + gid] = warp_scan_exclusive_max(v);
	out[11 * 64 + gid] = warp_all(v > -6);
	out[12 * 64 + gid] = warp_any(v == 100);
	out[13 * 64 + gid] = (int)(uint)ballot;
	out[14 * 64 + gid] = (int)(uint)(ballot >> 32);
	out[15 * 64 + gid] = (int)warp_id();
}

/* out[0] = warp_size(), out[1] = warp_count(); launched like clwarp_probe. */
__kernel void clwarp_probe_info(__global uint *out)
{
	uint size = warp_size();
	uint count = warp_count();
	if (get_global_id(0) == 0) {
		out[0] = size;
		out[1] = count;
	}
}

/* Warps in multi-dimensional work-groups. Launched 2-D and 3-D, global =
 * local; work-item l (the linear local id, x fastest) writes
 * out[3 * l ..]: warp_lane_id(), warp_shuffle(l, 0) and
 * warp_reduce_add(1). Warps that are runs of the linear id give l % W,
 * l - l % W and W (src/probe.c, probe_layout). */
__kernel void clwarp_probe_layout(__global uint *out)
{
	uint l = (uint)(get_local_id(0) + get_local_size(0) *
			(get_local_id(1) + get_local_size(1) * get_local_id(2)));

	out[3 * l + 0] = warp_lane_id();
	out[3 * l + 1] = warp_shuffle(l, 0u);
	out[3 * l + 2] = warp_reduce_add(1u);
}

/* The native collectives of the optional extensions (src/probe.c,
 * probe_native; built into every probe, launched only where one is in
 * use), launched like clwarp_probe. With v, gid and base as there,
 * h(i) = i * 0x9E3779B1 (uint) and src(k) = base + k % W, work-item gid
 * writes out[field * 64 + gid]:
 *   0  warp_reduce_mul((uint)(v + 6))                   product over the warp, mod 2^32
 *   1  warp_reduce_xor(h(gid))                          xor over the warp
 *   2  warp_reduce_xor((ulong)h(gid) << 32 | gid) >> 32 the high word of the ulong xor
 *   3  warp_reduce_mul(v > 0 ? 1 : -1)                  the int product, +-1
 *   4  warp_reduce_mul((ulong)(v + 6)) folded to 32 bits: lo ^ hi
 *   5  warp_broadcast((uint4)(gid, h, gid ^ 5, h + 1), 3).s2        src(3) ^ 5
 *   6  warp_broadcast((uint8)gid + (uint8)(0, ..., 7) * h, 1).s7   src(1) + 7 h(src(1))
 *   7  (uint)(warp_broadcast((ulong2)(gid, (ulong)h << 32), 2).s1 >> 32)  h(src(2)) */
__kernel void clwarp_probe_native(__global int *out)
{
	uint gid = get_global_id(0);
	int v = (int)(gid * 7 % 13) - 5;
	uint h = gid * 0x9E3779B1u;
	ulong p = warp_reduce_mul((ulong)(v + 6));

	out[0 * 64 + gid] = (int)warp_reduce_mul((uint)(v + 6));
	out[1 * 64 + gid] = (int)warp_reduce_xor(h);
	out[2 * 64 + gid] = (int)(uint)(warp_reduce_xor(((ulong)h << 32) | gid) >> 32);
	out[3 * 64 + gid] = warp_reduce_mul(v > 0 ? 1 : -1);
	out[4 * 64 + gid] = (int)((uint)p ^ (uint)(p >> 32));
	out[5 * 64 + gid] = (int)warp_broadcast((uint4)(gid, h, gid ^ 5u, h + 1u), 3u).s2;
	out[6 * 64 + gid] = (int)warp_broadcast((uint8)(gid) + (uint8)(0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u) * h, 1u).s7;
	out[7 * 64 + gid] = (int)(uint)(warp_broadcast((ulong2)(gid, (ulong)h << 32), 2u).s1 >> 32);
}
