/* The butterfly exchange: warp_shuffle_xor(v, 1) swaps the values of lanes
 * 2k and 2k+1 (lane L reads lane L ^ 1). CUDA: __shfl_xor_sync(mask, v, 1).
 * With masks 1, 2, 4, ... it is the pattern of butterfly reductions
 * (butterfly_max.cl) and of the FFT. */
//! run: -g 64 -l 64 -a int[64]=i*10 -a out:int[64]
//! expect[0]: 10 0 30 20 50 40 70 60 90 80 110 100 130 120 150 140 170 160 190 180 210 200 230 220 250 240 270 260 290 280 310 300 330 320 350 340 370 360 390 380 410 400 430 420 450 440 470 460 490 480 510 500 530 520 550 540 570 560 590 580 610 600 630 620

kernel void butterfly(global const int *in, global int *out)
{
	size_t i = get_global_id(0);

	out[i] = warp_shuffle_xor(in[i], 1);
}
