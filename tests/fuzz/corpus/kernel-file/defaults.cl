//! run: -a 'int[4]=iota' -a out:int[4] -a int:10
//! expect[0]: 10 12 14 16
kernel void twice(global const int *in, global int *out, int s)
{
	size_t i = get_global_id(0);
	out[i] = in[i] * 2 + s;
}
