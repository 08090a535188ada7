kernel void plain(global uint *a) { a[get_global_id(0)] = get_local_id(0) + 1; }
kernel __attribute__((reqd_work_group_size(384, 1, 1))) void reqd384(global uint *a) { a[get_global_id(0)] = get_local_id(0) + 1; }
kernel void with_local(global uint *a) { local uint s[384]; s[get_local_id(0)] = get_local_id(0); barrier(CLK_LOCAL_MEM_FENCE); a[get_global_id(0)] = s[get_local_size(0) - 1 - get_local_id(0)] + 1; }
kernel void with_ballot(global uint *a) { uint m; int p = get_local_id(0) & 1; asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }" : "=r"(m) : "r"(p)); a[get_global_id(0)] = m; }
