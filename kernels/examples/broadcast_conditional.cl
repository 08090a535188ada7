/* A conditional broadcast: lane 0 decides, every lane acts. Lane 0 looks at
 * its own value and the whole warp follows its decision: keep and scale by 10
 * when lane 0's value is >= 0, else write 0. Every lane computes a decision and
 * calls warp_broadcast; only lane 0's counts (CUDA: ok = __shfl_sync(mask,
 * ok, 0)). Never put the broadcast itself inside if (lane == 0). */
//! run: -g 64 -l 64 -a int[64]=(i%7)-3 -a out:int[64]
//! expect[0]: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 10 20 30 -30 -20 -10 0 10 20 30 -30 -20 -10 0 10 20 30 -30 -20 -10 0 10 20 30 -30 -20 -10 0 10 20 30 -30
//! expect[0]@8: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 10 20 30 -30 -20 -10 0 10 20 30 -30 -20 -10 0 10 20 30 -30 -20 -10 0 10 20 30 -30 -20 -10 0 10 20 30 0 0 0 0 0 0 0 0
//! expect[0]@64: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0

kernel void broadcast_conditional(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int v = in[i];
	int mine = v >= 0;
	int go = warp_broadcast(mine, 0);

	out[i] = go ? v * 10 : 0;
}
