//! run: -g 64 -l 64 -a out:int[64] -a out:int[64] -a out:uint[64]
__attribute__((target("ptx60"))) int v_all(int p) { return __nvvm_vote_all_sync(0xffffffffu, p); }
__attribute__((target("ptx60"))) int v_any(int p) { return __nvvm_vote_any_sync(0xffffffffu, p); }
__attribute__((target("ptx60"))) uint v_bal(int p) { return __nvvm_vote_ballot_sync(0xffffffffu, p); }
kernel void votes(global int *all_out, global int *any_out, global uint *bal)
{
	uint i = get_local_id(0);
	all_out[i] = v_all((i & 31) != 5);
	any_out[i] = v_any((i & 31) == 5);
	bal[i] = v_bal((i & 3) == 0);
}
